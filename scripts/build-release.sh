#!/usr/bin/env bash
# Builds the tuned release of the products named in "$@" and prints the folder they are in:
# what `make install` installs and the benchmarks measure.
# Every product is built with the same flags in the same scratch path, so that building one
# never rebuilds the others.
#
# Start-up is most of a short call, so the link is tuned for it:
# - lld with packed relative relocations (RELR) keeps the executable position-independent
#   while making its start-up relocations cheap;
# - --no-export-dynamic undoes the `-export-dynamic` that `--static-swift-stdlib` brings:
#   exporting every Swift symbol made the dynamic symbol table 31,000 entries long, which
#   the loader and the runtime's own `dladdr` walk at every start;
# - libstdc++ is linked statically, as the Swift runtime is: loading and relocating the
#   shared library was about a millisecond of every run. It is found first because a link to
#   the static archive sits in the products directory, which the linker searches before the
#   compiler's own directories.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --static-swift-stdlib --scratch-path .build-relr
  -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic)
bin=$(swift build "${flags[@]}" --show-bin-path)
mkdir -p "$bin"
archive=$(clang -print-file-name=libstdc++.a 2>/dev/null || true)
if [ -f "$archive" ] && [ ! -e "$bin/libstdc++.a" ]; then
  ln -s "$archive" "$bin/libstdc++.a"
  rm -f "${@/#/$bin/}" # relink what was linked against the shared library
fi
for product in "$@"; do
  swift build "${flags[@]}" --product "$product" >&2
done
echo "$bin"
