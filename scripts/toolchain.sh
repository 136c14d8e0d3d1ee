#!/usr/bin/env bash
# Makes sure a Node that builds and runs ctx and the pinned pnpm are available, fetching both from the npm registry
# into a cache folder when the machine's own Node is too old (these machines ship Node 20).
# Usage: eval "$(scripts/toolchain.sh)"   -> exports PATH with node and pnpm first.
set -euo pipefail
NODE_MAJOR=24
PNPM_VERSION=10.34.9
cache="${CTX_TOOLCHAIN_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ctx-toolchain}"

# The machine's own Node, when asked for (CTX_USE_SYSTEM_NODE=1): 22.18 or newer. ctx itself runs on 22.16
# (src/core/setup/node-minimum.ts), but in a clone pnpm links the packages, and 22.16-22.17 load a linked CommonJS
# package's own dependencies from the link's folder (`ctx index`: "Cannot find module 'string-width'").
have_node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 18) ? 0 : 1)' 2>/dev/null
}

cached_pnpm_version() {
  [ -x "$cache/node_modules/node/bin/node" ] && [ -f "$cache/node_modules/pnpm/package.json" ] || return 1
  "$cache/node_modules/node/bin/node" -p 'require(process.argv[1]).version' "$cache/node_modules/pnpm/package.json"
}

# The machine's own npm global config (a corporate CA, a proxy, a registry mirror) lives under the prefix of
# the machine's npm. The Node and pnpm fetched below have another prefix and would not see it, so it is named
# for them (npm_config_globalconfig, which npm and pnpm both read) and for the fetch itself.
machine_globalconfig=""
if command -v npm >/dev/null 2>&1; then
  machine_globalconfig=$(npm config get globalconfig 2>/dev/null || true)
  [ -n "$machine_globalconfig" ] && [ -f "$machine_globalconfig" ] || machine_globalconfig=""
fi

bin_path=""
if [ "$(cached_pnpm_version 2>/dev/null)" = "$PNPM_VERSION" ] && "$cache/node_modules/node/bin/node" --version >/dev/null 2>&1; then
  bin_path="$cache/node_modules/node/bin:$cache/node_modules/.bin"
elif [ "${CTX_USE_SYSTEM_NODE:-}" = 1 ] && have_node_ok && command -v pnpm >/dev/null 2>&1; then
  bin_path=""
else
  command -v npm >/dev/null 2>&1 || { echo "toolchain: npm is needed to fetch Node $NODE_MAJOR (install Node.js first)" >&2; exit 1; }
  mkdir -p "$cache"
  # `--prefix` alone would make npm look for its global config under the cache folder.
  extra=()
  if [ -n "$machine_globalconfig" ]; then extra=(--globalconfig "$machine_globalconfig"); fi
  echo "toolchain: fetching node@$NODE_MAJOR and pnpm@$PNPM_VERSION from the npm registry into $cache" >&2
  (cd "$cache" && npm install --no-save --no-audit --no-fund --loglevel=error --prefix . "${extra[@]}" "node@$NODE_MAJOR" "pnpm@$PNPM_VERSION" >&2) || {
    echo "toolchain: npm could not fetch node@$NODE_MAJOR and pnpm@$PNPM_VERSION (its error is above); check the registry, proxy and CA settings in \`npm config list\`" >&2
    exit 1
  }
  bin_path="$cache/node_modules/node/bin:$cache/node_modules/.bin"
  # npm may skip the node package's install script (it links the platform binary): say so plainly.
  if ! "$cache/node_modules/node/bin/node" --version >/dev/null 2>&1 || [ "$(cached_pnpm_version 2>/dev/null)" != "$PNPM_VERSION" ]; then
    echo "toolchain: node@$NODE_MAJOR or pnpm@$PNPM_VERSION did not install correctly into $cache; delete that folder and retry" >&2
    exit 1
  fi
fi
# What is printed is eval'd by the caller's shell: every path is one single-quoted word (as src/core/shell/quote.ts
# quotes), so a folder holding `"`, `$(…)`, a backtick or a newline stays a name and never runs (issue #31).
quote_word() {
  local quote="'\\''"
  printf "'%s'" "${1//\'/$quote}"
}
if [ -n "$bin_path" ]; then
  echo "export PATH=$(quote_word "$bin_path"):\"\$PATH\""
  if [ -n "$machine_globalconfig" ] && [ -z "${npm_config_globalconfig:-}" ]; then
    echo "export npm_config_globalconfig=$(quote_word "$machine_globalconfig")"
  fi
fi
