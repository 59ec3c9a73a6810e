# The commands a contributor runs.
.PHONY: build release test lint format bench man fuzz

build:
	swift build

release:
	bash bench/build.sh moya-cli

test:
	swift test --disable-swift-testing

lint:
	swift format lint --strict -r Sources Tests bench/Sources fuzz

format:
	swift format format -i -r Sources Tests bench/Sources fuzz Package.swift

bench:
	bash bench/validate.sh
	bash bench/call.sh

man:
	bash scripts/man.sh

# libFuzzer targets (fuzz/MoyaFuzz.swift): FUZZ_SECONDS each, corpora in .build-fuzz/corpus.
FUZZ_SECONDS ?= 600
fuzz:
	bash scripts/fuzz.sh $(FUZZ_SECONDS)
