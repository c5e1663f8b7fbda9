#!/usr/bin/env bash
# Installs everything patterm and its tests need on a fresh Debian machine with Node >= 20:
# pnpm, the terminal programs the tests drive, and the project's dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf 'bootstrap: %s\n' "$*" >&2; }

node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
  log "patterm needs Node >= 20 (found $(node --version))"; exit 1
fi

if ! command -v pnpm >/dev/null 2>&1; then
  log "installing pnpm"
  npm i -g pnpm >/dev/null 2>&1 || corepack enable pnpm
fi

scripts/system-tools.sh

# node-gyp must build node-pty (and patterm's own addon) against local Node headers: with no
# internet it cannot download them. npm's nodedir wins; else the headers next to the running node.
nodedir=$(npm config get nodedir 2>/dev/null || true)
if [ -n "$nodedir" ] && [ "$nodedir" != "undefined" ] && [ "$nodedir" != "null" ]; then
  log "Node headers: $nodedir (npm config nodedir)"
else
  node_prefix=$(dirname "$(dirname "$(node -p 'require("fs").realpathSync(process.execPath)')")")
  if [ -f "$node_prefix/include/node/node.h" ]; then
    nodedir=$node_prefix
    log "Node headers: $nodedir/include/node (next to the running node; npm has no nodedir)"
  else
    nodedir=
    log "Node headers: none found (no npm nodedir, no $node_prefix/include/node); node-gyp will try to download them"
  fi
fi
if [ -n "$nodedir" ]; then export npm_config_nodedir="$nodedir"; fi

if [ ! -f node_modules/.modules.yaml ] || [ package.json -nt node_modules/.modules.yaml ] || [ pnpm-lock.yaml -nt node_modules/.modules.yaml ]; then
  log "installing dependencies"
  pnpm install --frozen-lockfile >&2
fi
pnpm run -s build >&2
