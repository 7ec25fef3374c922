#!/usr/bin/env bash
# Installs, idempotently, every tool `make play` and `make test` need on a fresh machine.
# Versions are pinned to what ../shared/toolchain.md verified here; nothing is downloaded
# from outside the package registries (crates.io, npm, PyPI, Debian).
set -euo pipefail
WB_VER=0.2.130      # must equal the wasm-bindgen pin in Cargo.toml
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

want="${1:-all}"   # all | play

rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown

if [ "$want" = all ]; then
  need_apt=""
  command -v chromium     >/dev/null || need_apt="$need_apt chromium"
  command -v chromedriver >/dev/null || need_apt="$need_apt chromium-driver"
  # `python3 -m venv` needs ensurepip, which Debian ships apart.
  python3 -c 'import ensurepip' 2>/dev/null || need_apt="$need_apt python3-venv"
  if [ -n "$need_apt" ]; then
    sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
    echo "install-tools: apt-get install$need_apt"
    $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need_apt
  fi
fi

[ "$(wasm-bindgen --version 2>/dev/null)" = "wasm-bindgen $WB_VER" ] \
  || cargo install wasm-bindgen-cli --version "$WB_VER"          # no --locked: see toolchain.md
# Neither Trunk nor wasm-pack is installed: scripts/build-wasm.sh builds the playground and
# the shim's packages with cargo, this wasm-bindgen and binaryen's wasm-opt (below), which
# saves about 15 minutes on a fresh machine. Trunk.toml still works for `trunk serve`.

# npm tools: binaryen 132 (wasm-opt that understands modern wasm) and playwright-core.
# Reinstalled when missing or when package-lock.json changed since the last install.
if [ ! -x e2e/node_modules/.bin/wasm-opt ] || [ ! -d e2e/node_modules/playwright-core ] \
   || [ e2e/package-lock.json -nt e2e/node_modules/.package-lock.json ]; then
  (cd e2e && npm ci --no-audit --no-fund --loglevel=error)
fi

# python-tests/: the official Python client in a venv under target/ (make test-python), pinned
# by its requirements.txt; reinstalled when that file changed since the last install.
if [ "$want" = all ] && { [ ! -x target/pyenv/bin/python ] \
   || [ python-tests/requirements.txt -nt target/pyenv/installed ]; }; then
  mkdir -p target
  python3 -m venv target/pyenv
  target/pyenv/bin/pip install --quiet --disable-pip-version-check -r python-tests/requirements.txt
  touch target/pyenv/installed
fi

# node-tests/: @kubernetes/client-node for the shim's Node test (make test-node), pinned by
# its package-lock.json.
if [ "$want" = all ] && { [ ! -d node-tests/node_modules/@kubernetes/client-node ] \
   || [ node-tests/package-lock.json -nt node-tests/node_modules/.package-lock.json ]; }; then
  (cd node-tests && npm ci --no-audit --no-fund --loglevel=error)
fi
