# The commands a contributor runs, and the install.
.PHONY: build release dist install uninstall demo test lint format bench man fuzz

PREFIX ?= /usr/local
DESTDIR ?=

build:
	swift build

# The release build: plain `swift build -c release`, whose executables' link is tuned in
# Package.swift. Prints the folder the binaries are in.
release:
	bash scripts/build-release.sh moya-cli moya-cli-tools

# A release tarball in dist/: binaries, man pages, completions, docs, LICENSE and SHA-256 sums
# (scripts/dist.sh has the layout).
dist:
	bash scripts/dist.sh dist

# The release tarball, built from .build/release and installed by scripts/install.sh, which
# checks its sums: the same path a downloaded release takes.
install:
	@set -e; scratch=$$(mktemp -d); trap 'rm -rf "$$scratch"' EXIT; \
	tarball=$$(DIST_GZIP_LEVEL=1 bash scripts/dist.sh "$$scratch"); \
	DESTDIR="$(DESTDIR)" bash scripts/install.sh --prefix "$(PREFIX)" "$$tarball"

# Removes exactly what install wrote.
uninstall:
	@bash scripts/dist.sh --list | while read -r path; do rm -f "$(DESTDIR)$(PREFIX)/$$path"; done

# The quick start's first command: moya-cli alone, in the debug build the tests build on too,
# then a call answered from the bundled spec's sample. Its job is one result, fast: a release
# build takes about three times as long (bench/RESULTS.md), and is what `make install` builds.
demo:
	@swift build --product moya-cli >&2 && \
	"$$(swift build --show-bin-path)/moya-cli" call myservice.showUser --id 1 --stub immediate

test:
	swift test --disable-swift-testing

lint:
	swift format lint --strict -r Sources Tests bench/Sources fuzz Examples
	python3 scripts/folder-cycles.py Sources/MoyaRuntime

format:
	swift format format -i -r Sources Tests bench/Sources fuzz Examples Package.swift

bench:
	bash bench/validate.sh
	bash bench/call.sh
	bash bench/lazy.sh
	bash bench/mock.sh

man:
	bash scripts/man.sh

# libFuzzer targets (fuzz/MoyaFuzz.swift): FUZZ_SECONDS each, corpora in .build-fuzz/corpus.
FUZZ_SECONDS ?= 600
fuzz:
	bash scripts/fuzz.sh $(FUZZ_SECONDS)
