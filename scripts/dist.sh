#!/usr/bin/env bash
# The release tree and its tarball: the one layout that `make install`, `make dist` and
# scripts/install.sh share.
#
#   scripts/dist.sh --list          the installed paths, relative to PREFIX, one per line
#   scripts/dist.sh OUTDIR [BINDIR] builds the release (or takes the binaries in BINDIR),
#                                   writes OUTDIR/moya-cli-VERSION-OS-ARCH.tar.gz and its
#                                   .sha256, and prints the tarball's path
#
# The tarball holds one folder, moya-cli-VERSION-OS-ARCH/, laid out as PREFIX is (bin/,
# share/man/, share/*completion*/, share/doc/moya-cli/, share/moya-cli/examples/), with SHA256SUMS for
# every file in it.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each line: the path under PREFIX, its mode, and where it comes from ("bin:" a built
# binary, "completion:" a shell the binary writes completion for, else a repository file).
layout() {
  echo "bin/moya-cli 755 bin:moya-cli"
  echo "bin/moya-cli-tools 755 bin:moya-cli-tools"
  echo "share/man/man1/moya-cli.1 644 man/moya-cli.1"
  echo "share/man/man5/moya-cli-spec.5 644 man/moya-cli-spec.5"
  echo "share/bash-completion/completions/moya-cli 644 completion:bash"
  echo "share/zsh/site-functions/_moya-cli 644 completion:zsh"
  echo "share/fish/vendor_completions.d/moya-cli.fish 644 completion:fish"
  for doc in README.md CHANGELOG.md LICENSE docs/*.md; do
    echo "share/doc/moya-cli/$doc 644 $doc"
  done
  # The bundled specs, which `moya-cli init` copies into the user's spec folder.
  for example in specs/*.yaml specs/*.json; do
    echo "share/moya-cli/examples/${example#specs/} 644 $example"
  done
}

if [ "${1:-}" = "--list" ]; then
  layout | cut -d' ' -f1
  exit 0
fi
out=${1:?usage: scripts/dist.sh OUTDIR [BINDIR] | --list}
bin=${2:-$(bash scripts/build-release.sh moya-cli moya-cli-tools)}
version=$(sed -n 's/.*static let current = "\(.*\)"/\1/p' Sources/MoyaRuntime/Version.swift)
# DIST_SUFFIX names a build for another system than this one's, such as linux-static-x86_64.
name=moya-cli-$version-${DIST_SUFFIX:-$(uname -s | tr '[:upper:]' '[:lower:]')-$(uname -m)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/$name
while read -r path mode source; do
  mkdir -p "$(dirname "$root/$path")"
  case $source in
    bin:*) cp "$bin/${source#bin:}" "$root/$path" && strip "$root/$path" ;;
    completion:*) "$bin/moya-cli" --generate-completion-script "${source#completion:}" > "$root/$path" ;;
    *) cp "$source" "$root/$path" ;;
  esac
  chmod "$mode" "$root/$path"
done < <(layout)
paths=$(layout | cut -d' ' -f1)
(cd "$root" && xargs sha256sum <<< "$paths" > SHA256SUMS)
mkdir -p "$out"
# Written beside the destination and renamed, so that a failed run leaves no partial tarball.
# DIST_GZIP_LEVEL trades size for time: `make install`, which unpacks the tarball at once,
# packs it with 1 (a third of the time of gzip's default 6, for a tarball 10 % larger).
tar -C "$work" -cf - --owner=0 --group=0 "$name" | gzip "-${DIST_GZIP_LEVEL:-6}" -n > "$work/$name.tar.gz"
(cd "$work" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")
mv "$work/$name.tar.gz" "$out/$name.tar.gz"
mv "$work/$name.tar.gz.sha256" "$out/$name.tar.gz.sha256"
echo "$out/$name.tar.gz"
