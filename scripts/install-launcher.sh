#!/usr/bin/env bash
# Puts this clone's ctx on PATH without installing anything: writes a small launcher, `ctx` in ~/.local/bin (or
# --dir), that runs this clone's build (dist/ctx.js) with the Node that builds it (scripts/toolchain.sh: the machine's
# own when it is new enough, else the Node 24 fetched from the npm registry). On a machine whose own Node is too old,
# this is what makes `ctx` work in any shell after the quick start. Run it again after moving the clone; it replaces
# only a launcher it wrote, never another `ctx`.
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
node_bin="$(command -v node)"
entry="$repo/dist/ctx.js"
[ -f "$entry" ] || { echo "install-launcher: $entry is missing: run \`bash scripts/setup.sh\` first" >&2; exit 1; }

MARKER="# ctx launcher (scripts/install-launcher.sh)"
quote() { printf "'%s'" "${1//\'/\'\\\'\'}"; }
target="$dir/ctx"
if [ -L "$target" ] || { [ -e "$target" ] && ! [ -f "$target" ]; }; then
  echo "install-launcher: $target is not a regular file; left as it is" >&2
  exit 1
fi
if [ -f "$target" ] && ! grep -qF "$MARKER" "$target"; then
  echo "install-launcher: $target is another program; left as it is (use --dir to write the launcher elsewhere)" >&2
  exit 1
fi
mkdir -p "$dir"
tmp="$(mktemp "$dir/.ctx-launcher-XXXXXX")"
trap 'rm -f "$tmp"' EXIT
{
  echo "#!/bin/sh"
  echo "$MARKER: runs $repo/dist/ctx.js with $node_bin"
  echo "exec $(quote "$node_bin") $(quote "$entry") \"\$@\""
} >"$tmp"
chmod 0755 "$tmp"
mv -f "$tmp" "$target"
trap - EXIT
echo "install-launcher: wrote $target (runs $entry with Node $("$node_bin" --version))"
case ":$PATH:" in
  *":$dir:"*) ;;
  *) echo "install-launcher: $dir is not on PATH; add it in your shell profile: export PATH=$(quote "$dir"):\"\$PATH\"" ;;
esac
