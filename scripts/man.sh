#!/usr/bin/env bash
# Regenerates man/moya-cli.1 from the commands with swift-argument-parser's generate-manual
# plugin. With --check, fails instead when the committed page is out of date.
set -euo pipefail
cd "$(dirname "$0")/.."
page=man/moya-cli.1
if [ "${1:-}" = "--check" ]; then
  # Keep the committed page's date, so that only a change in the commands shows.
  day=$(sed -n 's/^\.Dd //p' "$page")
  date=$(date -d "$day" +%Y-%m-%d)
else
  date=$(date +%Y-%m-%d)
fi
swift package plugin --allow-writing-to-package-directory generate-manual \
  --configuration debug --date "$date" > /dev/null
raw=.build/plugins/GenerateManual/outputs/moya-cli/moya-cli.1
# The plugin ends the page with a bare EXIT STATUS; ours come from man/sections.mdoc.
generated=.build/plugins/GenerateManual/moya-cli.1
version=$(sed -n 's/.*static let current = "\(.*\)"/\1/p' Sources/MoyaRuntime/Version.swift)
# The plugin drops every character outside ASCII (its escaping skips them), so a help text
# that says "instead of ••••" would read "instead of ." in the page. Each such text is put
# back from the commands' own help dump, its other characters written as roff escapes.
dump=$("$(swift build --product moya-cli --show-bin-path)/moya-cli" --experimental-dump-help)
python3 - "$raw" man/sections.mdoc "$generated" "$version" "$dump" <<'PY'
import json, sys
page, sections, out, version = (open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3], sys.argv[4])
stock = '.Sh "EXIT STATUS"\n.Ex -std'
if not page.rstrip("\n").endswith(stock):
    sys.exit("generate-manual's page no longer ends with .Ex -std; update scripts/man.sh")
page = page.rstrip("\n")[: -len(stock)] + sections

def texts(node):
    if isinstance(node, dict):
        for value in node.values(): yield from texts(value)
    elif isinstance(node, list):
        for value in node: yield from texts(value)
    elif isinstance(node, str):
        yield node

for text in sorted(set(texts(json.loads(sys.argv[5])))):
    if text.isascii(): continue
    dropped = "".join(c for c in text if c.isascii())
    escaped = "".join(c if c.isascii() else "\\[u%04X]" % ord(c) for c in text)
    if dropped not in page: sys.exit("cannot find the help text %r in the page; update scripts/man.sh" % dropped)
    page = page.replace(dropped, escaped)
# The footer names the version, from the one place it is kept.
page = page.replace("\n.Os\n", "\n.Os moya-cli %s\n" % version, 1)
open(out, "w").write(page)
PY
if [ "${1:-}" = "--check" ]; then
  if ! diff -u "$page" "$generated"; then
    echo "man/moya-cli.1 is out of date with the commands; run scripts/man.sh and commit it." >&2
    exit 1
  fi
  echo "man/moya-cli.1 is up to date"
else
  cp "$generated" "$page"
  echo "wrote $page"
fi
