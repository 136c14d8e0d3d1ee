// What the context tools share: the store's deps from the server's, which session to capture, and the
// character budgets of restored text.
import type { RestoreMode } from "../../core/context/restore-text.ts";
import { isCtxError } from "../../errors.ts";
import { type ContextOpsDeps, resolveSession, type SessionRef } from "../../store/context/operations.ts";
import type { ServerDeps } from "../deps.ts";

/**
 * `full` text stays under Claude Code's MCP output limit (25,000 tokens by default; about 20,000 here);
 * summary and selective use the hook re-injection budget, so both paths show the same text.
 */
export const FULL_RESTORE_MAX_CHARS = 80_000;

export function maxCharsFor(mode: RestoreMode, deps: ServerDeps): number {
  return mode === "full" ? FULL_RESTORE_MAX_CHARS : deps.config.hooks.maxInjectChars;
}

export function contextOpsDeps(deps: ServerDeps): ContextOpsDeps {
  return { projectRoot: deps.projectRoot, config: deps.config, now: deps.now };
}

/**
 * The session that spawned this server when ctx has recorded it, else the newest recorded one. Claude Code
 * keeps the spawn-time id after /clear, and a server started by hand has none, hence the fallback.
 */
export async function resolveToolSession(deps: ServerDeps): Promise<SessionRef> {
  const ops = contextOpsDeps(deps);
  if (deps.sessionId !== undefined && deps.sessionId !== "") {
    try {
      return await resolveSession(ops, { sessionId: deps.sessionId });
    } catch (error) {
      if (!isCtxError(error) || error.code !== "NOT_FOUND") throw error;
      deps.logger.info(`session ${deps.sessionId} is not recorded here; using the newest recorded session`);
    }
  }
  return resolveSession(ops);
}
