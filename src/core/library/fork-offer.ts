// The fork log's line for a search (docs/forks.md): the query redacted and cut, the offered sessions with their fork
// points. On every search's path, so it loads only the redactor (and the schema's types: no zod). Pure.
import { redactText } from "../redact/redact.ts";
import type { ForkOfferRecord, ForkOfferSession } from "./fork-log-schema.ts";

/** A query longer than this is cut: the log keeps what a person would recognise, not a pasted log. */
export const QUERY_CHARS = 500;
/** Sessions kept per offer: a search shows at most a few; a `--limit 50` search need not fill the log. */
export const OFFER_SESSIONS = 10;

export function offerRecord(
  at: number,
  via: "cli" | "mcp",
  query: string,
  sessions: readonly ForkOfferSession[],
): ForkOfferRecord {
  const cut = query.length > QUERY_CHARS ? `${query.slice(0, QUERY_CHARS - 1)}…` : query;
  return { kind: "offer", at, via, query: redactText(cut).text, sessions: sessions.slice(0, OFFER_SESSIONS) };
}
