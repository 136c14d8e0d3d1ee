#!/usr/bin/env bash
# The README's second command: the whole test suite (unit, whole-process, and Claude Code itself),
# after the same setup as the first. CI runs exactly this.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/setup.sh
source "$repo/scripts/setup.sh"
cd "$repo"
pnpm check
