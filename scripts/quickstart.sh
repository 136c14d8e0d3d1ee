#!/usr/bin/env bash
# The README's first command: set up, then run ctx's main job on embedded defaults in a demo repository
# (no server, no API key, no download beyond npm packages): `ctx init`, a Claude Code session start and end
# as Claude Code would send them to the hooks, `ctx status` and `ctx doctor`.
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
transcript="$repo/tests/fixtures/transcripts/spotter/short.jsonl"
echo "== a Claude Code session $session starts and ends (hook input as Claude Code sends it)"
printf '{"session_id":"%s","transcript_path":"%s","cwd":"%s","hook_event_name":"SessionStart","source":"startup"}' \
  "$session" "$transcript" "$demo" | ctx hook session-start
printf '{"session_id":"%s","transcript_path":"%s","cwd":"%s","hook_event_name":"SessionEnd","reason":"prompt_input_exit"}' \
  "$session" "$transcript" "$demo" | ctx hook session-end
echo
echo "== ctx status"
ctx status
echo
echo "== ctx doctor"
ctx doctor || true
echo
echo "Demo repository: $demo (delete it when done). Use ctx in your own repository: see README.md, Install."
