#!/usr/bin/env bash
# Embeds moya-cli's JSON Schemas in moya-cli: schema/moya-cli-spec.schema.json, the spec
# format's, as Sources/MoyaSpec/Schema/SpecSchema+Text.swift, which `moya-cli schema` prints;
# schema/arazzo.schema.json, the Arazzo documents' that `validate` holds them to, as
# Sources/MoyaArazzo/ArazzoSchema+Text.swift. With --check, fails instead when an embedded
# text is not its file's. The files are the ones to edit.
set -euo pipefail
cd "$(dirname "$0")/.."
made=$(mktemp)
trap 'rm -f "$made"' EXIT
status=0
embed() {
  local file=$1 swift=$2 type=$3
  if grep -q '"""#' "$file"; then echo "$file holds \"\"\"#, which a raw string cannot" >&2; exit 1; fi
  {
    echo "// Made by scripts/spec-schema.sh from $file; edit that file."
    echo "extension $type {"
    echo "    /// The text of $file."
    echo '    static let json = #"""'
    # Indented as swift format indents a multi-line literal; the indentation of the closing
    # delimiter is not part of the string.
    sed 's/^/        /' "$file"
    echo '        """#'
    echo '}'
  } > "$made"
  if [ "${CHECK:-}" = 1 ]; then
    diff -u "$swift" "$made" || { echo "$swift is out of date; run scripts/spec-schema.sh" >&2; status=1; }
  else
    cp "$made" "$swift"
    echo "wrote $swift"
  fi
}
[ "${1:-}" = "--check" ] && CHECK=1
embed schema/moya-cli-spec.schema.json Sources/MoyaSpec/Schema/SpecSchema+Text.swift SpecSchema
embed schema/arazzo.schema.json Sources/MoyaArazzo/ArazzoSchema+Text.swift ArazzoSchema
exit $status
