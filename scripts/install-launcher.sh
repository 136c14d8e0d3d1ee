#!/usr/bin/env bash
# Puts this clone's ctx on PATH without installing anything: writes a small launcher, `ctx` in ~/.local/bin (or
# --dir), that runs this clone's build (dist/ctx.js) with the Node that builds it (scripts/toolchain.sh: the machine's
# own when it is new enough, else the Node 24 fetched from the npm registry). On a machine whose own Node is too old,
# this is what makes `ctx` work in any shell after the quick start. Run it again after moving the clone; it replaces
# only a launcher it wrote, never another `ctx` (src/setup/launcher.ts writes it, by ctx's rules for a path you name).
# Usage: bash scripts/install-launcher.sh [--dir DIR]
set -euo pipefail
dir="$HOME/.local/bin"
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="$2"; shift 2 ;;
    *) echo "usage: bash scripts/install-launcher.sh [--dir DIR]" >&2; exit 2 ;;
  esac
done
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if ! toolchain_env=$("$repo/scripts/toolchain.sh"); then
  echo "install-launcher: could not provide a Node for ctx (see the toolchain error above)" >&2
  exit 1
fi
eval "$toolchain_env"
entry="$repo/dist/ctx.js"
[ -f "$entry" ] || { echo "install-launcher: $entry is missing: run \`bash scripts/setup.sh\` first" >&2; exit 1; }
# The usual folder for your own programs, made when it is missing; a folder named with --dir must exist.
[ "$dir" != "$HOME/.local/bin" ] || [ -e "$dir" ] || mkdir -p "$dir"
exec node "$repo/scripts/install-launcher.ts" "$dir" "$(command -v node)" "$entry"
