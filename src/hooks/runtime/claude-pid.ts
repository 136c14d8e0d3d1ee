// The pid of the Claude Code process running this hook, for crash detection (a session whose Claude Code
// is gone and never sent SessionEnd). Only the parent process, and only when it is recognisably Claude
// Code: a shell between Claude Code and ctx exits right after the hook, and taking its pid would make
// every live session look crashed. Null where it cannot be told (no /proc, another parent).
import { readFileSync } from "node:fs";

export function claudeCodePid(parentPid: number): number | null {
  if (parentPid <= 1) return null;
  try {
    const cmdline = readFileSync(`/proc/${parentPid}/cmdline`, "utf8");
    return /(^|[/\0])claude([-.\w]*)?(\0|$)|@anthropic-ai[/\\]claude-code/.test(cmdline) ? parentPid : null;
  } catch {
    return null;
  }
}
