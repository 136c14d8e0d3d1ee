#!/usr/bin/env bash
# The README's first command: set up, then run ctx's main job on embedded defaults in a demo repository
# (no server, no API key, no download beyond npm packages): `ctx init`, a Claude Code session (a real
# transcript from the fixtures) going through its hooks as Claude Code would drive them, including a
# compaction, then `ctx status`, `ctx restore`, `ctx snapshot list` and `ctx doctor`.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/setup.sh
source "$repo/scripts/setup.sh"
ctx() { node "$repo/dist/ctx.js" "$@"; }

demo="${CTX_DEMO_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/ctx-demo-XXXXXX")}"
mkdir -p "$demo"
cd "$demo"
[ -d .git ] || git init -q . 2>/dev/null || mkdir -p .git
export CTX_HOME="${CTX_HOME:-$demo/.ctx-home}"

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
