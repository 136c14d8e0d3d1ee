#!/usr/bin/env bash
# Installs what ctx needs to build and test from nothing: Node 24 + pnpm (from the npm registry, when the
# machine's Node is older than 22), the locked dependencies, and the build. Safe to run again.
# Usage: source scripts/setup.sh [--no-build]   (leaves node and pnpm on PATH; --no-build: install only)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# An assignment, not `eval "$(…)"`: eval of an empty string succeeds and would hide the toolchain's failure.
if ! toolchain_env=$("$repo/scripts/toolchain.sh"); then
  echo "setup: could not provide Node and pnpm (see the toolchain error above)" >&2
  return 1 2>/dev/null || exit 1
fi
eval "$toolchain_env"
cd "$repo"
if [ ! -d node_modules ] || [ pnpm-lock.yaml -nt node_modules/.modules.yaml ]; then
  echo "setup: installing dependencies (pnpm install --frozen-lockfile)" >&2
  pnpm install --frozen-lockfile --config.confirmModulesPurge=false --reporter=append-only >&2
fi
if [ "${1:-}" != "--no-build" ]; then
  echo "setup: building (pnpm build)" >&2
  pnpm build >/dev/null
fi
cd - >/dev/null
