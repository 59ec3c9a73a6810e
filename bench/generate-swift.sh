#!/usr/bin/env bash
# `generate swift` (targets, models and typed calls) beside swift-openapi-generator's types
# (`--mode types`: the models alone) on the same documents: every document of
# ../shared/openapi-real and ../shared/openapi-examples. Prints a Markdown table: hyperfine's
# median of each, moya-cli's `import openapi` and `generate swift` apart and together, and
# the lines each writes.
#
# Usage: bench/generate-swift.sh SWIFT_OPENAPI_GENERATOR [RUNS]
#   SWIFT_OPENAPI_GENERATOR: the `swift-openapi-generator` executable (1.14), built outside
#   the repository from the package mirror (`swift build -c release --product
#   swift-openapi-generator` in a clone of apple/swift-openapi-generator at 1.14.3).
#   MOYA_BIN: a folder with moya-cli and moya-cli-tools; default: the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
generator=${1:?usage: bench/generate-swift.sh SWIFT_OPENAPI_GENERATOR [RUNS]}
runs=${2:-5}
bin=${MOYA_BIN:-$(bash bench/build.sh moya-cli moya-cli-tools)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { python3 -c 'import json,sys; print("%.0f" % (json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]["median"] * 1000))' "$@"; }

echo "| document | import openapi | generate swift | both | lines | swift-openapi-generator types | lines | both ÷ generator |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for document in ../shared/openapi-real/*.yaml ../shared/openapi-real/*.json ../shared/openapi-examples/*.yaml; do
  file=$(basename "$document")
  name=$(echo "${file%.*}" | tr -c 'a-zA-Z0-9\n' '_')
  folder=$work/$name
  mkdir -p "$folder/out"
  cp "$document" "$folder/$file"
  import="$bin/moya-cli import openapi $folder/$file -o $folder/specs/$name.yaml --service $name"
  generate="$bin/moya-cli generate swift $name --specs $folder/specs -o $folder/$name.swift"
  sog="$generator generate --mode types --output-directory $folder/out $folder/$file"
  $import > /dev/null 2>&1
  $generate 2> /dev/null
  if $sog > "$folder/sog.log" 2>&1; then sogok=1; else sogok=0; fi
  commands=("$import" "$generate" "$import && $generate")
  [ "$sogok" = 1 ] && commands+=("$sog")
  hyperfine --style none --runs "$runs" --warmup 1 --export-json "$folder/times.json" "${commands[@]}" > /dev/null 2>&1
  lines=$(wc -l < "$folder/$name.swift")
  if [ "$sogok" = 1 ]; then
    soglines=$(cat "$folder"/out/*.swift | wc -l)
    ratio=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; print("%.2f" % (r[2]["median"] / r[3]["median"]))' "$folder/times.json")
    sogtime="$(median "$folder/times.json" 3) ms"
  else
    soglines="—"
    ratio="—"
    sogtime="fails: $(grep -m1 -i 'error' "$folder/sog.log" | cut -c1-80)"
  fi
  echo "| $file | $(median "$folder/times.json" 0) ms | $(median "$folder/times.json" 1) ms | $(median "$folder/times.json" 2) ms | $lines | $sogtime | $soglines | $ratio |"
done
