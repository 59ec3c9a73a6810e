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
python3 - "$raw" man/sections.mdoc "$generated" <<'PY'
import sys
page, sections, out = (open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3])
stock = '.Sh "EXIT STATUS"\n.Ex -std'
if not page.rstrip("\n").endswith(stock):
    sys.exit("generate-manual's page no longer ends with .Ex -std; update scripts/man.sh")
open(out, "w").write(page.rstrip("\n")[: -len(stock)] + sections)
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
