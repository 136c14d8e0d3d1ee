// How a person names a session: its id or the first characters of one (`ctx show 4d56`, `ctx session tag 4d5611e5`,
// `ctx_library {session_id}`), among the indexed sessions and any others the caller knows (the library's annotated
// ones). One rule for every command that takes a session id, so a prefix means the same everywhere.
import { hasControlCharacter } from "../core/text/control-characters.ts";
import { CtxError } from "../errors.ts";
import type { SessionIndex } from "./session-index/session-index.ts";
import { findSessionIds } from "./session-index/session-lookup.ts";

const MAX_ID_CHARS = 200;
/** How many candidates an ambiguous prefix names in its error. */
const SHOWN = 3;

export interface KnownSessions {
  /** The session index; null when there is none yet. */
  index: SessionIndex | null;
  /** Ids known besides the index's (the library's annotated sessions). */
  alsoKnown?: Iterable<string>;
  /** The asking session (CLAUDE_CODE_SESSION_ID): accepted by its full id even before it is indexed. */
  currentSessionId?: string;
  /**
   * The shortest prefix accepted (a whole id always is). A command that writes asks for a few characters, so a typo
   * cannot tag a stranger's session; one that only reads takes any unique start.
   */
  minPrefix?: number;
}

/** The one session `text` names; an unknown or ambiguous id is a CtxError (NOT_FOUND, USAGE), so nothing acts on it. */
export function resolveSessionId(text: string, known: KnownSessions): string {
  const id = text.trim();
  if (id === "") throw new CtxError("USAGE", "the session id is empty", { hint: "give a session id or its start" });
  if (id.length > MAX_ID_CHARS || hasControlCharacter(id)) {
    throw new CtxError("USAGE", "that is not a session id", {
      hint: "give a session id (or its first characters) from `ctx search` or `ctx session list`",
    });
  }
  if (id === known.currentSessionId) return id;
  const alsoKnown = [...(known.alsoKnown ?? [])];
  if (alsoKnown.includes(id)) return id;
  const indexed = known.index === null ? [] : findSessionIds(known.index, id, SHOWN + 1);
  if (indexed.length === 1 && indexed[0] === id) return id;
  const minPrefix = known.minPrefix ?? 1;
  if ([...id].length < minPrefix) {
    throw new CtxError("USAGE", `give at least ${minPrefix} characters of the session id, not "${id}"`);
  }
  const found = [...new Set([...indexed, ...alsoKnown.filter((other) => other.startsWith(id))])].sort();
  if (found.length === 1) return found[0] as string;
  if (found.length === 0) {
    throw new CtxError("NOT_FOUND", `no indexed session has an id starting with "${id}"`, {
      hint: "copy the id from `ctx search` or `ctx session list`; a session from the last minute may need `ctx index` first",
    });
  }
  const named = found.length > SHOWN ? `${found.slice(0, SHOWN).join(", ")}, …` : found.join(", ");
  throw new CtxError("USAGE", `"${id}" is the start of several sessions' ids (${named})`, {
    hint: "give more of the id",
  });
}
