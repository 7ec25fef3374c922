# kubesim: the two commands a newcomer needs are `make play` and `make test`.
# Each first runs scripts/install-tools.sh, which installs what is missing (wasm32 target,
# chromium + chromedriver, wasm-bindgen-cli 0.2.130, npm binaryen 132 and playwright-core,
# and for `make test` the Python client in a venv from PyPI) and does nothing when
# everything is there. The wasm builds need neither Trunk nor wasm-pack:
# scripts/build-wasm.sh runs cargo, wasm-bindgen and wasm-opt itself.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
.PHONY: help tools tools-play play build test test-native test-web e2e bench fmt format lint clippy
.PHONY: shim-pkg shim-pack test-node test-python test-sw fuzz soak

# binaryen 132's wasm-opt must win over any Debian wasm-opt (toolchain.md P1/P2).
export PATH := $(CURDIR)/e2e/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
export CHROMEDRIVER ?= /usr/bin/chromedriver
PORT ?= 8090
WASM := --target wasm32-unknown-unknown
# Where cargo builds: CARGO_TARGET_DIR when set (a shared or scratch folder), else target/.
CARGO_OUT := $(or $(CARGO_TARGET_DIR),target)

define section
	@printf '\n\033[1m==> %s\033[0m\n' "$(1)"
endef

help:
	@echo "make play   build the in-browser playground and serve it on http://127.0.0.1:$(PORT)/ (PORT=... to change)"
	@echo "make test   native tests, browser tests (headless Chromium) and the playground e2e"
	@echo "make bench  cargo bench, the playground and shim sizes, kubesim serve under wrk, then one table of ratios"
	@echo "make soak   kubesim serve under 64 clients and 1,000 watchers for SOAK_SECONDS (default 60), every event checked"
	@echo "make fuzz   run each cargo-fuzz target for FUZZ_SECONDS (default 60; nightly + cargo-fuzz)"
	@echo "make shim-pkg  build the fetch shim's packages: pkg-node/ (Node), pkg-web/ (ES module), pkg-sw/ (Service Worker)"
	@echo "make shim-pack npm pack each of them into target/npm/{node,web,sw}/ (installable tarballs)"
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

# The playground's inputs: `make build` skips the build (about 10 s even with nothing to
# compile: wasm-bindgen + wasm-opt) while dist/ is newer than all of them.
WEB_INPUTS := $(shell find src examples www -type f 2>/dev/null) index.html Cargo.toml $(wildcard Cargo.lock) scripts/build-wasm.sh

build: dist/index.html
	@echo "dist/ is up to date"

dist/index.html: $(WEB_INPUTS)
	$(call section,build: scripts/build-wasm.sh play -> dist/ (profile wasm-release))
	scripts/build-wasm.sh play
	@touch $@

play: tools-play build
	$(call section,play: serving dist/)
	@node e2e/serve.mjs --dir dist --port $(PORT)

test: tools
	@$(MAKE) --no-print-directory test-native test-web test-node test-python test-sw e2e
	$(call section,make test: all passed)

test-native:
	$(call section,native: cargo test --all-targets)
	cargo test --all-targets
	$(call section,native: cargo test --doc)
	cargo test --doc
	$(call section,native: cargo doc (no broken or private links))
	RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --lib

test-web:
	$(call section,browser: cargo test $(WASM) --test web --test playground_web (headless Chromium))
	cargo test $(WASM) --test web --test playground_web
	$(call section,browser: cargo test $(WASM) --test shim (the fetch shim in headless Chromium))
	cargo test $(WASM) --test shim
	$(call section,browser: downstream/wasm-client (a user's crate: its gloo-net client against the shim; its own target dir))
	cd downstream/wasm-client && CARGO_TARGET_DIR=$(abspath $(CARGO_OUT))/downstream cargo test $(WASM)

e2e: build
	$(call section,e2e: node e2e/e2e.mjs (playwright-core + /usr/bin/chromium on dist/))
	node e2e/e2e.mjs
	$(call section,e2e: node e2e/playground.mjs (the playground's features; screenshots in e2e/artifacts/))
	node e2e/playground.mjs

# The fetch shim's packages, one wasm build bound three ways by scripts/build-wasm.sh:
# pkg-node/ for Node (CommonJS, `require('./pkg-node')`), pkg-web/ for browsers and bundlers
# (ES module), pkg-sw/ for www/kubesim-sw.js (no-modules, loaded with importScripts).
# Rebuilt only when a Rust source, the manifest or the script changed.
SHIM_INPUTS := $(shell find src -type f -name '*.rs' 2>/dev/null) Cargo.toml $(wildcard Cargo.lock) scripts/build-wasm.sh $(wildcard scripts/shim-readme/*)

shim-pkg: pkg-node/package.json pkg-web/package.json pkg-sw/package.json
	@echo "pkg-node/ pkg-web/ pkg-sw/ are up to date"

pkg-node/package.json pkg-web/package.json pkg-sw/package.json &: $(SHIM_INPUTS)
	$(call section,shim-pkg: scripts/build-wasm.sh shim -> pkg-node/ pkg-web/ pkg-sw/)
	scripts/build-wasm.sh shim
	@touch pkg-node/package.json pkg-web/package.json pkg-sw/package.json

# `npm pack` of each package, as a user installs it: target/npm/{node,web,sw}/kubesim-0.1.0.tgz.
NPM_TARBALLS := target/npm/node/kubesim-0.1.0.tgz target/npm/web/kubesim-0.1.0.tgz target/npm/sw/kubesim-0.1.0.tgz
shim-pack: $(NPM_TARBALLS)
$(NPM_TARBALLS) &: pkg-node/package.json pkg-web/package.json pkg-sw/package.json
	$(call section,shim-pack: npm pack pkg-node/ pkg-web/ pkg-sw/ -> target/npm/)
	@for p in node web sw; do mkdir -p target/npm/$$p \
	  && (cd pkg-$$p && npm pack --silent --pack-destination ../target/npm/$$p >/dev/null) || exit 1; done

test-node: pkg-node/package.json $(NPM_TARBALLS)
	$(call section,node: node-tests/run.mjs (the shim and @kubernetes/client-node in Node))
	node node-tests/run.mjs
	$(call section,node: node-tests/downstream.test.mjs (the npm tarball installed and used, node --test))
	node --test node-tests/downstream.test.mjs

# The official Python client against `kubesim serve` (the debug binary test-native built).
test-python:
	$(call section,python: python-tests/run.py (the kubernetes Python client against kubesim serve))
	cargo build --bin kubesim
	target/pyenv/bin/python python-tests/run.py $(CARGO_OUT)/debug/kubesim

test-sw: pkg-sw/package.json $(NPM_TARBALLS)
	$(call section,browser: e2e/shim-sw.mjs (www/kubesim-sw.js in headless Chromium))
	node e2e/shim-sw.mjs
	$(call section,browser: e2e/downstream-web.mjs (the npm tarball installed and imported by a page))
	node e2e/downstream-web.mjs

# Ends with one table (benches/ratios.rs): every row beside the limit it is compared with,
# measured in the same run, plus the server's wrk rows and the wasm sizes.
bench: tools build shim-pkg
	$(call section,bench: cargo bench (criterion: list pages, watch fan-out, encodings))
	cargo bench --bench list_page --bench watch_fanout --bench encode
	$(call section,bench: the playground's gzip size and time to interactive (headless Chromium))
	node e2e/bench.mjs
	$(call section,bench: the fetch shim's round trips per second and wasm gzip size)
	node e2e/bench-shim.mjs
	$(call section,bench: kubesim serve under wrk (scripts/bench-server.sh))
	scripts/bench-server.sh
	$(call section,bench: the table (benches/ratios.rs))
	cargo bench --bench ratios

# The load-and-soak run (tests/it/soak.rs, soak_full) on an optimized build: 64 clients, 1,000
# watchers, SOAK_SECONDS (default 60); prints rates, latency percentiles and the server's RSS.
SOAK_SECONDS ?= 60
soak:
	SOAK_SECONDS=$(SOAK_SECONDS) cargo test --release --test it soak::soak_full -- --ignored --nocapture

# Every fuzz target (fuzz/fuzz_targets, the functions of src/fuzz.rs) for FUZZ_SECONDS each,
# from the seeds in fuzz/corpus/<target>/. What the fuzzer finds interesting lands in
# fuzz/work/<target>/ (not kept in git) and crashes in fuzz/artifacts/<target>/;
# a crash, once fixed, goes to fuzz/regressions/<target>/, which `make test` replays
# (tests/it/fuzz_corpus.rs) without a fuzzer.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS = $(basename $(notdir $(wildcard fuzz/fuzz_targets/*.rs)))
fuzz:
	@rustup toolchain list | grep -q '^nightly' || { echo "make fuzz needs the nightly toolchain (libFuzzer's sanitizer flags); it is not installed"; exit 1; }
	@command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
	cd fuzz && cargo +nightly fuzz build
	for t in $(FUZZ_TARGETS); do \
		printf '\n\033[1m==> fuzz: %s (%ss)\033[0m\n' "$$t" "$(FUZZ_SECONDS)"; \
		mkdir -p "fuzz/work/$$t"; \
		(cd fuzz && cargo +nightly fuzz run "$$t" "work/$$t" "corpus/$$t" -- -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -rss_limit_mb=4096) || exit 1; \
	done

fmt:
	$(call section,fmt: cargo fmt --check)
	cargo fmt --all --check

format:
	cargo fmt --all

clippy:
	$(call section,clippy: native (all targets))
	cargo clippy --all-targets -- -D warnings
	$(call section,clippy: wasm32 (lib, bin, playground example, browser tests))
	cargo clippy $(WASM) --lib --bins --examples --test web --test playground_web --test shim -- -D warnings

lint: fmt clippy
