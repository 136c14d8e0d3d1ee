// Which transcript a summaries command works on: a path to a `.jsonl`, a session id recorded in this project
// (ctx's SessionStart hook records them), or a session id found under Claude Code's projects folder; by
// default the newest session recorded here. Its messages are read redacted (each entry before it is cut).
import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join, resolve } from "node:path";
import type { Config } from "../config/schema.ts";
import { redactValue } from "../core/redact/redact.ts";
import { type CollectedConversation, createMessageCollector } from "../core/summaries/messages.ts";
import type { ParsedLine } from "../core/transcript/entries.ts";
import { CtxError, isCtxError } from "../errors.ts";
import { resolveSession, type SessionRef } from "../store/context/operations.ts";
import { readTranscriptEntries } from "../store/transcript/reader.ts";

export interface SessionLookup {
  projectRoot: string;
  config: Config;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

const lookupDeps = (lookup: SessionLookup) => ({
  projectRoot: lookup.projectRoot,
  config: lookup.config,
  now: () => new Date(),
});

export async function resolveSummarySession(lookup: SessionLookup, given?: string): Promise<SessionRef> {
  if (given === undefined || given === "") return resolveSession(lookupDeps(lookup));
  if (given.includes("/") || given.endsWith(".jsonl")) {
    const path = resolve(lookup.cwd, given);
    if (!existsSync(path)) {
      throw new CtxError("NOT_FOUND", `no transcript at ${path}`, {
        hint: "pass a Claude Code transcript (.jsonl) or a session id",
      });
    }
    return { sessionId: basename(path).replace(/\.jsonl$/, ""), transcriptPath: path };
  }
  try {
    return await resolveSession(lookupDeps(lookup), { sessionId: given });
  } catch (error) {
    if (!isCtxError(error) || error.code !== "NOT_FOUND") throw error;
  }
  const found = findInClaudeProjects(lookup.env, given);
  if (found !== null) return { sessionId: given, transcriptPath: found };
  throw new CtxError("NOT_FOUND", `no session ${given} recorded in this project or under Claude Code's projects`, {
    hint: "pass the transcript's path instead, or `ctx status` to see the sessions recorded here",
  });
}

/** `<CLAUDE_CONFIG_DIR or ~/.claude>/projects/*\/<id>.jsonl`. */
function findInClaudeProjects(env: NodeJS.ProcessEnv, sessionId: string): string | null {
  if (!/^[A-Za-z0-9._-]{1,128}$/.test(sessionId)) return null;
  const configDirs = (env.CLAUDE_CONFIG_DIR?.split(",") ?? [join(env.HOME ?? homedir(), ".claude")]).filter(Boolean);
  for (const dir of configDirs) {
    const projects = join(dir.trim(), "projects");
    let names: string[];
    try {
      names = readdirSync(projects);
    } catch {
      continue;
    }
    for (const name of names) {
      const candidate = join(projects, name, `${sessionId}.jsonl`);
      if (existsSync(candidate)) return candidate;
    }
  }
  return null;
}

/** The session's conversation as summaries see it, every entry redacted before it is read. */
export async function readSessionMessages(
  transcriptPath: string,
  allowlist: readonly string[],
): Promise<CollectedConversation & { redactions: number }> {
  const collector = createMessageCollector();
  let redactions = 0;
  for await (const line of readTranscriptEntries(transcriptPath)) {
    const { value, count } = redactValue(line.entry, { allowlist });
    redactions += count;
    collector.add(value as ParsedLine);
  }
  return { ...collector.build(), redactions };
}
