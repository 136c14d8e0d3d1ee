#!/usr/bin/env bash
# The README's first command: set up (quietly; the log is shown only if it fails), then show ctx's main job on
# embedded defaults (no server, no API key, no download beyond npm packages), in a throwaway demo repository:
# 1. `ctx init`;
# 2. a real Claude Code session (a transcript from the fixtures) through its hooks as Claude Code drives them:
#    PreCompact saves and verifies the working context, SessionStart(compact) re-injects it (an excerpt is shown);
# 3. fork detection: index sample sessions (or yours with `--claude-dir ~/.claude`) and search them.
# Usage: bash scripts/quickstart.sh [--claude-dir DIR] [--query TEXT] [--no-setup]
#   --no-setup: use the existing build (dist/ctx.js) and the node on PATH (the test of this script uses it).
set -euo pipefail
claude_dir=""
query="start the phoenix server in the background"
setup=1
while [ $# -gt 0 ]; do
  case "$1" in
    --claude-dir) claude_dir="$2"; shift 2 ;;
    --query) query="$2"; shift 2 ;;
    --no-setup) setup=0; shift ;;
    *) echo "usage: bash scripts/quickstart.sh [--claude-dir DIR] [--query TEXT] [--no-setup]" >&2; exit 2 ;;
  esac
done
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if [ "$setup" = 1 ]; then
  # pnpm's progress and the bundler's notes go to a log, shown only when setup fails.
  setup_log="$(mktemp "${TMPDIR:-/tmp}/ctx-setup-XXXXXX")"
  exec 3>&2 2>"$setup_log"
  trap 'status=$?; exec 2>&3; if [ $status -ne 0 ]; then cat "$setup_log" >&2; echo "quickstart: setup failed (log: $setup_log)" >&2; fi' EXIT
  # shellcheck source=scripts/setup.sh
  source "$repo/scripts/setup.sh"
  exec 2>&3
  trap - EXIT
  rm -f "$setup_log"
  echo "setup: Node $(node --version), dependencies installed, ctx built ($repo/dist/ctx.js)"
fi
ctx() { node "$repo/dist/ctx.js" "$@"; }
hook_input() { # event, extra JSON fields
  printf '{"session_id":"%s","transcript_path":"%s","cwd":"%s","hook_event_name":"%s",%s}' \
    "$session" "$transcript" "$demo" "$1" "$2"
}

demo="${CTX_DEMO_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/ctx-demo-XXXXXX")}"
mkdir -p "$demo"
cd "$demo"
[ -d .git ] || git init -q . 2>/dev/null || mkdir -p .git
export CTX_HOME="${CTX_HOME:-$demo/.ctx-home}"

echo
echo "== 1. ctx init in a demo repository ($demo)"
ctx init | sed -n '/^  created\|^  changed/p'

session="$(node -e 'console.log(crypto.randomUUID())')"
transcript="$repo/tests/fixtures/claude/projects/-home-marco-projects-spotter/491e126e-1e71-469c-ade2-fcc8af567c74.jsonl"
echo
echo "== 2. a Claude Code session compacts (a real transcript; hook input as Claude Code sends it)"
hook_input SessionStart '"source":"startup"' | ctx hook session-start >/dev/null
echo "-- PreCompact: ctx saves the working context, snapshots it, reads it back and verifies it"
hook_input PreCompact '"trigger":"manual"' | CTX_LOG_LEVEL=info ctx hook pre-compact 2>&1 | sed 's/^ctx hook info: /   /'
snapshot="$(ctx snapshot list --json | node -e 'console.log(JSON.parse(require("fs").readFileSync(0, "utf8")).snapshots[0].id)')"
ctx snapshot show "$snapshot" | sed -n '/^holds\|^file\|^transcript/s/^/   /p'
echo "-- SessionStart(compact): what Claude gets back right after the compaction (first lines)"
hook_input SessionStart '"source":"compact"' | ctx hook session-start | node -e '
  const reply = JSON.parse(require("fs").readFileSync(0, "utf8"));
  const lines = reply.hookSpecificOutput.additionalContext.split("\n");
  for (const line of lines.slice(0, 12)) console.log(`   | ${line}`);
  console.log(`   | … ${lines.length - 12} more line(s), ending with ${lines.at(-1)}`);'
hook_input SessionEnd '"reason":"prompt_input_exit"' | ctx hook session-end

echo
echo "== 3. find the session to fork from (what /fork-detect shows inside Claude Code)"
if [ -z "$claude_dir" ]; then
  claude_dir="$repo/tests/fixtures/claude"
  echo "-- ctx index --claude-dir tests/fixtures/claude   (the sample sessions that ship with the repository, in Claude Code's layout)"
else
  echo "-- ctx index --claude-dir $claude_dir"
fi
ctx index --claude-dir "$claude_dir" --quiet --json |
  node -e 'const r = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log(`   ${r.sessionsTotal} sessions, ${r.chunks} chunks indexed into ${process.env.CTX_HOME}/index.db`)'
echo "-- ctx search \"$query\""
ctx search "$query" --claude-dir "$claude_dir" --no-refresh --limit 3 || true

echo
echo "Demo repository: $demo (delete it when done)."
if type -P ctx >/dev/null 2>&1; then  # a program on PATH, not this script's ctx function
  echo "Next: ctx doctor there, or Install in README.md."
else
  echo "Next: \`ctx\` is not on PATH. \`bash scripts/install-launcher.sh\` puts it there (~/.local/bin/ctx runs this build"
  echo "with $(node --version), which works whatever this machine's own Node is); then ctx doctor, or Install in README.md."
fi
