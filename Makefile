# The commands a contributor runs.
.PHONY: build release test lint format bench man

build:
	swift build

release:
	bash bench/build.sh moya-cli

test:
	swift test --disable-swift-testing

lint:
	swift format lint --strict -r Sources Tests bench/Sources

format:
	swift format format -i -r Sources Tests bench/Sources Package.swift

bench:
	bash bench/validate.sh
	bash bench/call.sh

man:
	bash scripts/man.sh
