#!/usr/bin/env bash
# Runs ctx as a user installs it (`npm pack`, then `npm install` of the package into a throwaway prefix) on one
# official Node release fetched from the npm registry, through the paths every user hits: --version, init, the hooks
# (SessionStart, PreCompact, SessionStart after a compaction, PostToolUse, SessionEnd), index and search of the
# sample sessions, status, doctor, and the MCP server's handshake. Fails on any error, and on anything Node itself
# writes to stderr (an ExperimentalWarning, a stack). CI runs it on the minimum Node (package.json `engines`) and on the
# newest LTS.
# Usage: bash scripts/node-smoke.sh <node version, e.g. 22.16.0 or 26>   (after `pnpm build`, with Node >= 22 on PATH)
set -euo pipefail
version="${1:?usage: bash scripts/node-smoke.sh <node version>}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${CTX_TOOLCHAIN_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ctx-toolchain}/node-$version"
work="$(mktemp -d "${TMPDIR:-/tmp}/ctx-node-smoke-XXXXXX")"
trap 'rm -rf "$work"' EXIT

if ! "$cache/node_modules/node/bin/node" --version >/dev/null 2>&1; then
  mkdir -p "$cache"
  (cd "$cache" && npm install --no-save --no-audit --no-fund --loglevel=error --prefix . "node@$version" >&2)
fi
node_bin="$cache/node_modules/node/bin/node"
echo "smoke: Node $("$node_bin" --version) ($node_bin)"

# The package as npm installs it: its own dependencies, flat, from the registry.
(cd "$repo" && npm pack --silent --pack-destination "$work" >/dev/null)
npm install --no-audit --no-fund --loglevel=error --prefix "$work/install" "$work"/claude-ctx-*.tgz >&2
ctx_js="$work/install/node_modules/claude-ctx/dist/ctx.js"

demo="$work/repo"
mkdir -p "$demo/.git"
export CTX_HOME="$work/home" CTX_ARCHIVE__ENABLED=false HOME="$work/user-home"
mkdir -p "$HOME"
claude_dir="$work/claude"
cp -R "$repo/tests/fixtures/claude" "$claude_dir"
transcript="$(find "$claude_dir/projects" -name '*.jsonl' -not -path '*/subagents/*' | head -1)"

step() { # name, then the command: it must succeed, and Node must add nothing to its stderr
  local name="$1"
  shift
  if ! (cd "$demo" && "$@") >"$work/out" 2>"$work/err"; then
    echo "smoke: $name failed on Node $version:" >&2
    cat "$work/out" "$work/err" >&2
    exit 1
  fi
  # ctx's own lines (a warning it means to give) are fine; Node's (a process warning, a stack) are not.
  if grep -Eq '^\(node:[0-9]+\)|Warning:|^ +at ' "$work/err"; then
    echo "smoke: $name: Node wrote to stderr on Node $version:" >&2
    cat "$work/err" >&2
    exit 1
  fi
  echo "smoke: ok  $name"
}
ctx() { "$node_bin" "$ctx_js" "$@"; }
hook() { # event, hook_event_name, extra JSON fields
  printf '{"session_id":"smoke-session","transcript_path":"%s","cwd":"%s","hook_event_name":"%s",%s}' \
    "$transcript" "$demo" "$2" "$3" | ctx hook "$1"
}

step "ctx --version" ctx --version
step "ctx init" ctx init
step "hook session-start (startup)" hook session-start SessionStart '"source":"startup"'
step "hook pre-compact" hook pre-compact PreCompact '"trigger":"manual"'
step "hook session-start (compact)" hook session-start SessionStart '"source":"compact"'
grep -q additionalContext "$work/out" || { echo "smoke: SessionStart(compact) re-injected nothing" >&2; exit 1; }
step "hook post-tool-use" hook post-tool-use PostToolUse '"tool_name":"Bash","tool_input":{},"tool_response":{}'
step "hook session-end" hook session-end SessionEnd '"reason":"other"'
step "ctx index" ctx index --claude-dir "$claude_dir" --quiet
step "ctx search" ctx search "phoenix server" --claude-dir "$claude_dir" --no-refresh --json
grep -q '"sessionId"' "$work/out" || { echo "smoke: ctx search found nothing" >&2; exit 1; }
step "ctx status" ctx status
step "ctx doctor" ctx doctor --json
# The MCP server: initialize, then the tool list, over stdio.
serve() {
  printf '%s\n%s\n%s\n' \
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"smoke","version":"1"}}}' \
    '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
    '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' | timeout 20 "$node_bin" "$ctx_js" serve
}
step "ctx serve (initialize, tools/list)" serve
grep -q '"ctx_save"' "$work/out" || { echo "smoke: ctx serve listed no ctx_save tool" >&2; exit 1; }
echo "smoke: Node $version passed"
