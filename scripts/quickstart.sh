#!/usr/bin/env bash
# The README's first command: set up, then run ctx's main jobs on embedded defaults (no server, no API key,
# no download beyond npm packages):
# 1. fork detection: index Claude Code sessions (the sample transcripts that ship with the repository, laid out
#    as a throwaway ~/.claude; or yours with `--claude-dir ~/.claude`) into a throwaway index, then search them
#    and print the ranked sessions with their fork commands;
# 2. context that survives compaction, in a demo repository: `ctx init`, a Claude Code session (a real transcript
#    from the fixtures) going through its hooks as Claude Code would drive them, including a compaction, then
#    `ctx status`, `ctx restore`, `ctx snapshot list` and `ctx doctor`.
# Usage: bash scripts/quickstart.sh [--claude-dir DIR] [--query TEXT]
set -euo pipefail
claude_dir=""
query="start the phoenix server in the background"
while [ $# -gt 0 ]; do
  case "$1" in
    --claude-dir) claude_dir="$2"; shift 2 ;;
    --query) query="$2"; shift 2 ;;
    *) echo "usage: bash scripts/quickstart.sh [--claude-dir DIR] [--query TEXT]" >&2; exit 2 ;;
  esac
done
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/setup.sh
source "$repo/scripts/setup.sh"
ctx() { node "$repo/dist/ctx.js" "$@"; }

demo="${CTX_DEMO_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/ctx-demo-XXXXXX")}"
mkdir -p "$demo"
cd "$demo"
[ -d .git ] || git init -q . 2>/dev/null || mkdir -p .git
export CTX_HOME="${CTX_HOME:-$demo/.ctx-home}"

if [ -z "$claude_dir" ]; then
  claude_dir="$demo/.claude-sample"
  echo "== sample Claude Code sessions (real transcripts from the fixtures) in $claude_dir"
  node "$repo/tests/helpers/sample-claude-dir.ts" "$claude_dir"
fi
echo "== ctx index --claude-dir $claude_dir   (index: $CTX_HOME/index.db)"
ctx index --claude-dir "$claude_dir"
echo
echo "== ctx stats"
ctx stats
echo
echo "== ctx search \"$query\"   (what /fork-detect shows inside Claude Code)"
ctx search "$query" --claude-dir "$claude_dir" --no-refresh || true
echo

echo "== ctx init in $demo"
ctx init
echo
session="$(node -e 'console.log(crypto.randomUUID())')"
transcript="$repo/tests/fixtures/transcripts/spotter/subagent.jsonl"
echo "== a Claude Code session $session starts, compacts and ends (hook input as Claude Code sends it)"
printf '{"session_id":"%s","transcript_path":"%s","cwd":"%s","hook_event_name":"SessionStart","source":"startup"}' \
  "$session" "$transcript" "$demo" | ctx hook session-start
printf '{"session_id":"%s","transcript_path":"%s","cwd":"%s","hook_event_name":"PreCompact","trigger":"manual"}' \
  "$session" "$transcript" "$demo" | ctx hook pre-compact
printf '{"session_id":"%s","transcript_path":"%s","cwd":"%s","hook_event_name":"SessionEnd","reason":"prompt_input_exit"}' \
  "$session" "$transcript" "$demo" | ctx hook session-end
echo
echo "== ctx status"
ctx status
echo
echo "== ctx restore (what Claude would get back after a compaction, from the session-end save)"
ctx restore
echo
echo "== ctx snapshot list"
ctx snapshot list
echo
echo "== ctx doctor"
ctx doctor || true
echo
echo "Demo repository: $demo (delete it when done). Use ctx in your own repository: see README.md, Install."
