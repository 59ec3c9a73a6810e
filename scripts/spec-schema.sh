#!/usr/bin/env bash
# Embeds schema/moya-cli-spec.schema.json, the spec format's JSON Schema, in moya-cli as
# Sources/MoyaSpec/Schema/SpecSchema+Text.swift, which `moya-cli schema` prints. With --check,
# fails instead when the embedded text is not the file's. The file is the one to edit.
set -euo pipefail
cd "$(dirname "$0")/.."
file=schema/moya-cli-spec.schema.json
swift=Sources/MoyaSpec/Schema/SpecSchema+Text.swift
if grep -q '"""#' "$file"; then echo "$file holds \"\"\"#, which a raw string cannot" >&2; exit 1; fi
made=$(mktemp)
trap 'rm -f "$made"' EXIT
{
  echo '// Made by scripts/spec-schema.sh from schema/moya-cli-spec.schema.json; edit that file.'
  echo 'extension SpecSchema {'
  echo '    /// The text of schema/moya-cli-spec.schema.json.'
  echo '    static let json = #"""'
  # Indented as swift format indents a multi-line literal; the indentation of the closing
  # delimiter is not part of the string.
  sed 's/^/        /' "$file"
  echo '        """#'
  echo '}'
} > "$made"
if [ "${1:-}" = "--check" ]; then
  diff -u "$swift" "$made" || { echo "$swift is out of date; run scripts/spec-schema.sh" >&2; exit 1; }
else
  cp "$made" "$swift"
  echo "wrote $swift"
fi
