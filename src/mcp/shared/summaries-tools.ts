// What the summaries tools share: the session a call is about (named, else the one that spawned the server,
// else the newest recorded), the ops deps and the session argument. Their results are the CLI's too:
// SummarizeReportSchema (src/summaries/operations.ts), ContextStatsSchema (src/core/summaries/stats.ts).
import { existsSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import * as z from "zod/mini";
import type { SessionRef } from "../../store/context/operations.ts";
import type { SummariesOpsDeps } from "../../summaries/operations.ts";
import { resolveSummarySession } from "../../summaries/session-source.ts";
import type { ServerDeps } from "../deps.ts";
import { resolveToolSession } from "./context-tools.ts";

export function summariesOpsDeps(deps: ServerDeps): SummariesOpsDeps {
  return { projectRoot: deps.projectRoot, config: deps.config, env: deps.env ?? process.env, now: deps.now };
}

export async function resolveSummariesToolSession(deps: ServerDeps, session: string | undefined): Promise<SessionRef> {
  if (session === undefined) return awaitTranscript(await resolveToolSession(deps));
  const ops = summariesOpsDeps(deps);
  return resolveSummarySession(
    { projectRoot: deps.projectRoot, config: deps.config, cwd: deps.projectRoot, env: ops.env },
    session,
    { onlyClaudeProjects: true },
  );
}

export const SessionArgument = z
  .optional(z.string().check(z.minLength(1), z.maxLength(4096)))
  .check(z.describe("Session id or transcript path (default: this session, else the newest recorded here)."));

/** How long a tool waits for the asking session's transcript to appear on disk. */
const TRANSCRIPT_WAIT_MS = 2_000;

/**
 * The session asking: Claude Code writes its transcript asynchronously, and a warm server can be called before
 * the file exists (the likely cause of one CI failure of `claude -p "/context-stats"`). Waits up to 2 s for it,
 * polling every 50 ms; after that the tool reports the missing file as before.
 */
async function awaitTranscript(ref: SessionRef): Promise<SessionRef> {
  const deadline = Date.now() + TRANSCRIPT_WAIT_MS;
  if (ref.transcriptPath === "") return ref;
  while (!existsSync(ref.transcriptPath) && Date.now() < deadline) await delay(50);
  return ref;
}
