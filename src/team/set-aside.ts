// One bad session never blocks the push (issue 31): when the server refuses a batch for something in its data (a
// SQLSTATE of class 22, data exception, 23, integrity constraint, or 54, program limit: a row or a tsvector too
// large) rather than for everything (unreachable, a timeout, permissions, a server shutting down), the batch is
// split in halves and each half written again, down to the one session it refuses, which is set aside with its
// reason (src/search/session-index/team-outbox.ts keeps it queued, held back) while the rest goes on. A batch with one
// bad session among n costs about 2·log2(n) more transactions; the others land once.
import { hideSecrets } from "../core/team/server-url.ts";
import { collapseWhitespace, truncateText } from "../core/transcript/text.ts";
import { describeError } from "../errors.ts";
import { sanitizeLogLine } from "../terminal-text.ts";
import { sqlState } from "./connect.ts";

/** SQLSTATE classes that name a row's own data: data exception, integrity constraint violation, program limit. */
const ITEM_CLASSES = new Set(["22", "23", "54"]);
/** A set-aside reason is one line of at most this many characters. */
const REASON_MAX = 300;

/** True when the server refused the statement for something in the rows it was given, not for every push. */
export function isItemError(error: unknown): boolean {
  const state = sqlState(error);
  return state !== null && ITEM_CLASSES.has(state.slice(0, 2));
}

/** Why a session was set aside, for `ctx team status`: one line, passwords hidden, bounded. */
export function setAsideReason(error: unknown, passwords: readonly string[]): string {
  const state = sqlState(error);
  const said = collapseWhitespace(hideSecrets(describeError(error), passwords));
  const line = sanitizeLogLine(`the server refused it: ${said}${state === null ? "" : ` (SQLSTATE ${state})`}`);
  return truncateText(line, REASON_MAX);
}

/**
 * Writes `work` with `write` (one transaction, rolled back when it throws). When the server refuses it for an item's
 * reason, writes each half again, and hands the one session it still refuses to `setAside`. Returns what `write`
 * returned for the parts that went through, concatenated. Any other failure is thrown as it was.
 */
export async function writeSettingAside<T, R>(
  work: readonly T[],
  write: (part: readonly T[]) => Promise<R[]>,
  setAside: (item: T, error: unknown) => void,
): Promise<R[]> {
  try {
    return await write(work);
  } catch (error) {
    if (!isItemError(error)) throw error;
    const [only] = work;
    if (work.length === 1 && only !== undefined) {
      setAside(only, error);
      return [];
    }
    const half = Math.ceil(work.length / 2);
    const first = await writeSettingAside(work.slice(0, half), write, setAside);
    const second = await writeSettingAside(work.slice(half), write, setAside);
    return [...first, ...second];
  }
}
