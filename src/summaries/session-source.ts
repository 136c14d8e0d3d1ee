// Which transcript a summaries command works on: a path to a `.jsonl`, a session id recorded in this project
// (ctx's SessionStart hook records them), or a session id found under Claude Code's projects folder; by
// default the newest session recorded here. Its messages are read redacted (each entry before it is cut).
import { createHash } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { claudeProjectsDirs, insideClaudeProjects } from "../config/claude-paths.ts";
import type { Config } from "../config/schema.ts";
import { redactValue } from "../core/redact/redact.ts";
import { type CollectedConversation, createMessageCollector } from "../core/summaries/messages.ts";
import type { ParsedLine } from "../core/transcript/entries.ts";
import { isSessionId } from "../core/transcript/session-id.ts";
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

/**
 * `onlyClaudeProjects`: a path must lie inside Claude Code's projects folder (after resolving links). The
 * MCP tools set it: the model, not the person, chose the argument, and it must not make ctx read any file.
 */
export async function resolveSummarySession(
  lookup: SessionLookup,
  given?: string,
  options: { onlyClaudeProjects?: boolean } = {},
): Promise<SessionRef> {
  if (given === undefined || given === "") return resolveSession(lookupDeps(lookup));
  if (given.includes("/") || given.endsWith(".jsonl")) {
    const path = resolve(lookup.cwd, given);
    if (!existsSync(path)) {
      throw new CtxError("NOT_FOUND", `no transcript at ${path}`, {
        hint: "pass a Claude Code transcript (.jsonl) or a session id",
      });
    }
    const inside = insideClaudeProjects(lookup.env, path);
    if (options.onlyClaudeProjects === true && !inside) {
      throw new CtxError("USAGE", `${path} is not a transcript under Claude Code's projects folder`, {
        hint: "pass a session id, or the path of a .jsonl under ~/.claude/projects (CLAUDE_CONFIG_DIR)",
      });
    }
    // A transcript of Claude Code's is named by its session id (a UUID); any other file gets a name of its
    // own, so two files called x.jsonl in different folders never share one summaries sidecar.
    const stem = basename(path).replace(/\.jsonl$/, "");
    const named = inside || isSessionId(stem);
    const sessionId = named ? stem : `${stem}-${createHash("sha256").update(path).digest("hex").slice(0, 12)}`;
    return { sessionId, transcriptPath: path };
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
  for (const projects of claudeProjectsDirs(env)) {
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
