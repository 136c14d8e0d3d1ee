#!/usr/bin/env bash
# Installs what ctx needs to build and test from nothing: Node 24 + pnpm (from the npm registry, when the
# machine's Node is older than 22), the locked dependencies, and the build. Safe to run again.
# Usage: source scripts/setup.sh   (leaves node and pnpm on PATH)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
eval "$("$repo/scripts/toolchain.sh")"
cd "$repo"
if [ ! -d node_modules ] || [ pnpm-lock.yaml -nt node_modules/.modules.yaml ]; then
  echo "setup: installing dependencies (pnpm install --frozen-lockfile)" >&2
  pnpm install --frozen-lockfile --config.confirmModulesPurge=false --reporter=append-only >&2
fi
echo "setup: building (pnpm build)" >&2
pnpm build >/dev/null
cd - >/dev/null
