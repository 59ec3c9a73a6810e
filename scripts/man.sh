#!/usr/bin/env bash
# Regenerates the man pages: man/moya-cli.1 from the commands, with swift-argument-parser's
# generate-manual plugin, and man/moya-cli-spec.5 from docs/spec-format.md, with pandoc. Both
# must lint clean with `mandoc -Tlint`. With --check, fails instead when a committed page is
# out of date or does not lint clean.
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
# The dump is a file: at over 128 KiB it is too long for one argument.
dump=$(mktemp)
trap 'rm -f "$dump"' EXIT
"$(swift build --product moya-cli --show-bin-path)/moya-cli" --experimental-dump-help > "$dump"
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

for text in sorted(set(texts(json.load(open(sys.argv[5]))))):
    if text.isascii(): continue
    dropped = "".join(c for c in text if c.isascii())
    escaped = "".join(c if c.isascii() else "\\[u%04X]" % ord(c) for c in text)
    if dropped not in page: sys.exit("cannot find the help text %r in the page; update scripts/man.sh" % dropped)
    page = page.replace(dropped, escaped)
# The footer names the version, from the one place it is kept.
page = page.replace("\n.Os\n", "\n.Os moya-cli %s\n" % version, 1)

# The help texts are written for a terminal: blank lines between paragraphs, sentences run on,
# `code` in backticks and indented example lines. mdoc wants a paragraph macro, a sentence per
# line, a font for code and a literal display.
import re
lines, out_lines, literal = page.split("\n"), [], False
for index, line in enumerate(lines):
    following = lines[index + 1] if index + 1 < len(lines) else ""
    if line.startswith("  ") and not literal:
        out_lines.append(".Bd -literal -offset indent")
        literal = True
    if literal and not line.startswith("  "):
        out_lines.append(".Ed")
        literal = False
    if literal:
        out_lines.append(line.strip())
    elif line == "" and index == len(lines) - 1:
        out_lines.append("")
    elif line == "":
        # A paragraph break, unless a list item or section starts one anyway.
        if not re.match(r"\.(It|El|Sh|Ss|Pp|Bd)\b", following) and out_lines and out_lines[-1] != ".Pp":
            out_lines.append(".Pp")
    elif line == ".Pp" and re.match(r"\.(It|El|Sh|Ss)\b", following):
        continue
    elif line.startswith("."):
        out_lines.append(line)
    else:
        line = re.sub(r"`([^`]+)`", r"\\fB\1\\fR", line)
        out_lines.extend(part for part in re.split(r"(?:(?<=[.!?])|(?<=[.!?][)\"'])) +(?=\S)", line) if part)
page = "\n".join(out_lines)
open(out, "w").write(page)
PY

# moya-cli-spec(5): docs/spec-format.md with its sections as the page's, a NAME and a SEE
# ALSO, through pandoc's man writer. Pandoc's preamble picks a code font by testing the
# device, which mandoc cannot; the code is set in bold instead, as man pages do.
spec_generated=.build/plugins/GenerateManual/moya-cli-spec.5
python3 - docs/spec-format.md <<'PY' |
import sys
text = open(sys.argv[1]).read().split("\n", 1)[1]
lines, fence = [], False
for line in text.split("\n"):
    if line.startswith("```"):
        fence = not fence
    if not fence and line.startswith("## "):
        line = "# " + line[3:].upper()
    elif not fence and line.startswith("###"):
        line = line[1:]
    lines.append(line)
print("# NAME\n\nmoya-cli-spec - the YAML spec format of moya-cli\n\n# DESCRIPTION\n")
print("\n".join(lines))
print("# SEE ALSO\n\n**moya-cli**(1); the same text, with links, in docs/spec-format.md.")
PY
  pandoc -f gfm -t man -s --ascii -M title=MOYA-CLI-SPEC -M section=5 -M date="$date" \
    -M footer="moya-cli $version" -M header="File Formats" |
  python3 -c '
import re, sys
page = sys.stdin.read()
page = re.sub(r"\.\\\" Define V font.*?\n\.\\\}\n(?=\.TH)", "", page, flags=re.S)
page = re.sub(r"\\f\[(?:V|VB|CB)\]", r"\\f[B]", page).replace("\\f[C]", "\\f[R]")
page = re.sub(r"(\n\.S[HS] [^\n]*\n)\.PP\n", r"\1", page)
sys.stdout.write(page)' > "$spec_generated"

for made in "$generated" "$spec_generated"; do
  if ! lint=$(mandoc -Tlint -W warning "$made" 2>&1); then
    echo "$lint" >&2
    echo "$(basename "$made") does not lint clean with mandoc -Tlint" >&2
    exit 1
  fi
done
status=0
for pair in "$page:$generated" "man/moya-cli-spec.5:$spec_generated"; do
  committed=${pair%%:*} made=${pair#*:}
  if [ "${1:-}" = "--check" ]; then
    if ! diff -u "$committed" "$made"; then
      echo "$committed is out of date; run scripts/man.sh and commit it." >&2
      status=1
    else
      echo "$committed is up to date"
    fi
  else
    cp "$made" "$committed"
    echo "wrote $committed"
  fi
done
exit $status
