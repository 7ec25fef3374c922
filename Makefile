# kubesim: the two commands a newcomer needs are `make play` and `make test`.
# Each first runs scripts/install-tools.sh, which installs what is missing (wasm32 target,
# chromium + chromedriver, wasm-bindgen-cli 0.2.130, trunk 0.21.14, npm binaryen 132 and
# playwright-core) and does nothing when everything is there.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
.PHONY: help tools tools-play play build test test-native test-web e2e bench fmt format lint clippy

# binaryen 132's wasm-opt must win over any Debian wasm-opt (toolchain.md P1/P2).
export PATH := $(CURDIR)/e2e/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
export CHROMEDRIVER ?= /usr/bin/chromedriver
PORT ?= 8090
WASM := --target wasm32-unknown-unknown

define section
	@printf '\n\033[1m==> %s\033[0m\n' "$(1)"
endef

help:
	@echo "make play   build the in-browser playground and serve it on http://127.0.0.1:$(PORT)/ (PORT=... to change)"
	@echo "make test   native tests, browser tests (headless Chromium) and the playground e2e"
	@echo "make bench  cargo bench"
	@echo "make lint   rustfmt check + clippy (native and wasm32), warnings are errors"
	@echo "make format apply rustfmt"
	@echo "make tools  install the toolchain (idempotent; make play/test run it)"

tools:
	$(call section,tools: scripts/install-tools.sh)
	@scripts/install-tools.sh all

# `make play` needs no browser tools (no chromium / chromedriver).
tools-play:
	$(call section,tools: scripts/install-tools.sh play)
	@scripts/install-tools.sh play

# The playground's inputs: `make build` skips trunk (about 10 s even with nothing to
# compile: wasm-bindgen + wasm-opt) while dist/ is newer than all of them.
WEB_INPUTS := $(shell find src examples www -type f 2>/dev/null) index.html Trunk.toml Cargo.toml $(wildcard Cargo.lock)

build: dist/index.html
	@echo "dist/ is up to date"

# Trunk runs offline (Trunk.toml), so the crates must be in the local cache first.
dist/index.html: $(WEB_INPUTS)
	$(call section,build: trunk build --release -> dist/)
	@cargo fetch --quiet
	trunk build --release
	@touch $@

play: tools-play build
	$(call section,play: serving dist/)
	@node e2e/serve.mjs --dir dist --port $(PORT)

test: tools
	@$(MAKE) --no-print-directory test-native test-web e2e
	$(call section,make test: all passed)

test-native:
	$(call section,native: cargo test --all-targets)
	cargo test --all-targets
	$(call section,native: cargo test --doc)
	cargo test --doc

test-web:
	$(call section,browser: cargo test $(WASM) --test web (headless Chromium))
	cargo test $(WASM) --test web

e2e: build
	$(call section,e2e: node e2e/e2e.mjs (playwright-core + /usr/bin/chromium on dist/))
	node e2e/e2e.mjs

bench:
	$(call section,bench: cargo bench)
	@if compgen -G 'benches/*.rs' >/dev/null; then cargo bench; \
	else echo "no benches yet (benches/*.rs); nothing to run"; fi

fmt:
	$(call section,fmt: cargo fmt --check)
	cargo fmt --all --check

format:
	cargo fmt --all

clippy:
	$(call section,clippy: native (all targets))
	cargo clippy --all-targets -- -D warnings
	$(call section,clippy: wasm32 (lib, bin, playground example, browser tests))
	cargo clippy $(WASM) --lib --bins --examples --test web -- -D warnings

lint: fmt clippy
