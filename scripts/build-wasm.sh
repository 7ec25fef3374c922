#!/usr/bin/env bash
# Builds what kubesim ships as WebAssembly, with no tool but cargo, the wasm-bindgen CLI and
# binaryen's wasm-opt (both installed by scripts/install-tools.sh):
#
#   scripts/build-wasm.sh play   dist/: the playground page (examples/playground.rs)
#   scripts/build-wasm.sh shim   pkg-node/ (CommonJS, Node 20+), pkg-web/ (ES module),
#                                pkg-sw/ (no-modules, for www/kubesim-sw.js): the fetch shim
#
# Both compile in the `wasm-release` profile (Cargo.toml: optimized for size) into the same
# target directory, so the second shares the first's dependencies. The shim's three packages
# come from one compiled module, bound three ways. This is what `trunk build --release` and
# `wasm-pack build --release` did, without their installs (about 15 minutes on a fresh machine);
# index.html stays Trunk's template, so `trunk serve` still works for those who use it.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/e2e/node_modules/.bin:$HOME/.cargo/bin:$PATH"  # binaryen 132 (toolchain.md P1/P2)

PROFILE=wasm-release
OUT="${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/$PROFILE"
what="${1:?usage: build-wasm.sh play|shim}"

# wasm-opt -Oz in place (binaryen 132 from e2e/node_modules, never Debian's 108). Gzipped,
# -Oz is not the smallest: without binaryen's inlining the shim is about 40 KB smaller
# (651 against 690 KB), but each level of a deeply nested object then costs more of the
# JavaScript engine's stack, and Node's test of 1,000 levels overflows it. Its inlining stays.
optimize() {
  wasm-opt -Oz "$1" -o "$1.opt"
  mv "$1.opt" "$1"
}

# A short content hash for cache-busting file names, as Trunk's.
hash16() { sha256sum "$1" | cut -c1-16; }

build_play() {
  cargo build --quiet --target wasm32-unknown-unknown --profile "$PROFILE" --example playground
  local stage=target/wasm-stage/play
  rm -rf "$stage" && mkdir -p "$stage"
  wasm-bindgen --target web --no-typescript --out-dir "$stage" --out-name kubesim \
    "$OUT/examples/playground.wasm"
  optimize "$stage/kubesim_bg.wasm"
  local js wasm css
  js="kubesim-$(hash16 "$stage/kubesim.js").js"
  wasm="kubesim-$(hash16 "$stage/kubesim_bg.wasm")_bg.wasm"
  css="style-$(hash16 www/style.css).css"
  rm -rf dist && mkdir -p dist
  cp "$stage/kubesim.js" "dist/$js"
  cp "$stage/kubesim_bg.wasm" "dist/$wasm"
  cp www/style.css "dist/$css"
  # index.html with its two Trunk links replaced by what Trunk writes for them.
  local script="<script type=\"module\">import init from '/$js'; await init({ module_or_path: '/$wasm' });</script>"
  script="$script<link rel=\"modulepreload\" href=\"/$js\"><link rel=\"preload\" href=\"/$wasm\" as=\"fetch\" type=\"application/wasm\" crossorigin=\"anonymous\">"
  awk -v css="<link rel=\"stylesheet\" href=\"/$css\" />" -v script="$script" '
    /<link data-trunk rel="css"/  { sub(/<link data-trunk rel="css"[^>]*>/, css) }
    /<link data-trunk rel="rust"/ { sub(/<link data-trunk rel="rust"[^>]*>/, script) }
    { print }' index.html >dist/index.html
  grep -q "$wasm" dist/index.html || { echo "build-wasm.sh: index.html has no rust link" >&2; exit 1; }
}

# One package directory: the bound module, optimized, a package.json for its target and a
# README with that target's usage (scripts/shim-readme/).
shim_package() {
  local target="$1" dir="$2" module_field="$3"
  rm -rf "$dir" && mkdir -p "$dir"
  wasm-bindgen --target "$target" --out-dir "$dir" "$OUT/kubesim.wasm"
  optimize "$dir/kubesim_bg.wasm"
  cat >"$dir/package.json" <<EOF
{
  "name": "kubesim",
  "description": "A faithful, deterministic simulator of the Kubernetes API server's semantics",
  "version": "0.1.0",
  "license": "Apache-2.0",
  "files": ["kubesim_bg.wasm", "kubesim.js", "kubesim.d.ts", "README.md"],
  $module_field,
  "types": "kubesim.d.ts"
}
EOF
  [ -f "scripts/shim-readme/$target.js" ] || { echo "build-wasm.sh: no scripts/shim-readme/$target.js" >&2; exit 1; }
  awk -v target="$target" -v usage="scripts/shim-readme/$target.js" '
    /@USAGE@/ { while ((getline line < usage) > 0) print line; next }
    { gsub(/@TARGET@/, target); print }' scripts/shim-readme/README.md.in >"$dir/README.md"
}

build_shim() {
  cargo build --quiet --target wasm32-unknown-unknown --profile "$PROFILE" --lib
  shim_package nodejs pkg-node '"main": "kubesim.js"'
  shim_package web pkg-web '"type": "module", "module": "kubesim.js"'
  shim_package no-modules pkg-sw '"browser": "kubesim.js"'
}

case "$what" in
  play) build_play ;;
  shim) build_shim ;;
  *) echo "usage: build-wasm.sh play|shim" >&2; exit 2 ;;
esac
