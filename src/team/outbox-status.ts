// What `ctx team status` shows of the local outbox: what waits to be pushed and the sessions set aside. Each read
// opens the session index read-only; no index yet, or one `ctx index` must rebuild first, reads as empty.
import { existsSync } from "node:fs";
import { openSessionIndex } from "../search/session-index/session-index.ts";
import {
  type OutboxDepth,
  outboxDepth,
  readSetAside,
  type SetAsideSession,
} from "../search/session-index/team-outbox.ts";

/** The outbox's depth for `ctx team status` (no index yet, or one `ctx index` must rebuild first: empty). */
export function readOutboxDepth(dbPath: string): OutboxDepth {
  const empty = { sessions: 0, items: 0, oldestAt: null };
  if (!existsSync(dbPath)) return empty;
  let index: ReturnType<typeof openSessionIndex>;
  try {
    index = openSessionIndex(dbPath, { readonly: true });
  } catch {
    return empty;
  }
  try {
    return outboxDepth(index);
  } finally {
    index.close();
  }
}

/** The sessions set aside and still held back, for `ctx team status` (no index yet, or one to rebuild: none). */
export function readSetAsideSessions(dbPath: string): SetAsideSession[] {
  if (!existsSync(dbPath)) return [];
  let index: ReturnType<typeof openSessionIndex>;
  try {
    index = openSessionIndex(dbPath, { readonly: true });
  } catch {
    return [];
  }
  try {
    return readSetAside(index);
  } finally {
    index.close();
  }
}
