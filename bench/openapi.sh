#!/usr/bin/env bash
# Import speed: `moya-cli import openapi` against Python's load plus openapi-spec-validator
# (PyPI) on the same file (bench/openapi_validate.py: the json module or PyYAML's C loader,
# then validate()), side by side in one hyperfine run, for the three largest documents of the
# real corpus. A document the validator refuses ends its run at the first error; the run is
# timed all the same (--ignore-failure). Usage: bench/openapi.sh [CORPUS_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-../shared/openapi-real}
bin=$(bash bench/build.sh moya-cli moya-cli-tools)
out=bench/out/openapi
mkdir -p "$out/bin"
# Installed copies, as the other benchmarks time them.
cp "$bin/moya-cli" "$bin/moya-cli-tools" "$out/bin/"
for document in asana.yaml sendgrid.json twilio-api-v2010.json; do
  file="$corpus/$document"
  hyperfine --ignore-failure --warmup 1 --runs 5 --export-markdown "$out/${document%.*}.md" \
    -n "moya-cli import openapi $document" "$out/bin/moya-cli import openapi $file -o $out/spec.yaml" \
    -n "python load + openapi-spec-validator $document" "python3 bench/openapi_validate.py $file"
done
cat "$out"/*.md
