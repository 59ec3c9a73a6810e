# The commands a contributor runs, and the install.
.PHONY: build release install uninstall demo test lint format bench man fuzz

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR := $(PREFIX)/bin
MANDIR := $(PREFIX)/share/man/man1
# Where each shell looks for completions that a package installs.
BASHDIR := $(PREFIX)/share/bash-completion/completions
ZSHDIR := $(PREFIX)/share/zsh/site-functions
FISHDIR := $(PREFIX)/share/fish/vendor_completions.d
# Everything `make install` writes, and so everything `make uninstall` removes.
INSTALLED := $(BINDIR)/moya-cli $(BINDIR)/moya-cli-openapi $(MANDIR)/moya-cli.1 $(BASHDIR)/moya-cli $(ZSHDIR)/_moya-cli \
	$(FISHDIR)/moya-cli.fish

build:
	swift build

# The tuned release build (scripts/build-release.sh); prints the folder it is in.
release:
	bash scripts/build-release.sh moya-cli

# Builds the tuned release, strips it, and installs it with its man page and completions.
install:
	@set -e; bin=$$(bash scripts/build-release.sh moya-cli moya-cli-openapi); \
	stage=$$(mktemp -d); trap 'rm -rf "$$stage"' EXIT; \
	cp "$$bin/moya-cli" "$$stage/moya-cli"; strip "$$stage/moya-cli"; \
	cp "$$bin/moya-cli-openapi" "$$stage/moya-cli-openapi"; strip "$$stage/moya-cli-openapi"; \
	for shell in bash zsh fish; do \
		"$$stage/moya-cli" --generate-completion-script $$shell > "$$stage/$$shell"; \
	done; \
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)" "$(DESTDIR)$(BASHDIR)" "$(DESTDIR)$(ZSHDIR)" \
		"$(DESTDIR)$(FISHDIR)"; \
	install -m 755 "$$stage/moya-cli" "$(DESTDIR)$(BINDIR)/moya-cli"; \
	install -m 755 "$$stage/moya-cli-openapi" "$(DESTDIR)$(BINDIR)/moya-cli-openapi"; \
	install -m 644 man/moya-cli.1 "$(DESTDIR)$(MANDIR)/moya-cli.1"; \
	install -m 644 "$$stage/bash" "$(DESTDIR)$(BASHDIR)/moya-cli"; \
	install -m 644 "$$stage/zsh" "$(DESTDIR)$(ZSHDIR)/_moya-cli"; \
	install -m 644 "$$stage/fish" "$(DESTDIR)$(FISHDIR)/moya-cli.fish"; \
	for file in $(INSTALLED); do echo "installed $(DESTDIR)$$file"; done

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))

# The quick start's first command: a call answered from the bundled spec's sample.
demo:
	swift run -q moya-cli call myservice.showUser --id 1 --stub immediate

test:
	swift test --disable-swift-testing

lint:
	swift format lint --strict -r Sources Tests bench/Sources fuzz Examples

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
