#!/usr/bin/env bash
# The README's second command: the whole test suite (unit, whole-process, and Claude Code itself),
# after the same setup as the first but the build. CI runs exactly this. No build before `pnpm check`: its lint
# step fails on a committed *.compiled.ts that is not what the schema beside it compiles to, and a build would
# rewrite that file first (build/compile-schemas.ts); `pnpm check` builds before its tests.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/setup.sh
source "$repo/scripts/setup.sh" --no-build
cd "$repo"
pnpm check
