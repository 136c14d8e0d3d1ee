// The fork log's line for a search (docs/forks.md "What ctx records"): the offered sessions with their fork points,
// the query's SHA-256, and its words redacted when the caller has the redactor at hand. Redacting costs a search
// process about 10 ms (the rules' 44 KB and their first compilation, bench in docs/forks.md), more than the search
// may grow, so a one-off `ctx search` that did not catch the index up (and so never loaded the redactor) keeps the
// hash only; the MCP server, which keeps it loaded, and a search that caught up keep the words too. Pure.
import { sha256 } from "../hash/sha256.ts";
import type { ForkOfferRecord, ForkOfferSession } from "./fork-log-schema.ts";

/** A query longer than this is cut: the log keeps what a person would recognise, not a pasted log. */
export const QUERY_CHARS = 500;
/** Sessions kept per offer: a search shows at most a few; a `--limit 50` search need not fill the log. */
export const OFFER_SESSIONS = 10;

/** `redact`: the redactor (core/redact redactText's text), or null to keep the hash only. */
export function offerRecord(
  at: number,
  via: "cli" | "mcp",
  query: string,
  sessions: readonly ForkOfferSession[],
  redact: ((text: string) => string) | null,
): ForkOfferRecord {
  const cut = query.length > QUERY_CHARS ? `${query.slice(0, QUERY_CHARS - 1)}…` : query;
  return {
    kind: "offer",
    at,
    via,
    query: redact === null ? null : redact(cut),
    queryHash: queryHashOf(query),
    sessions: sessions.slice(0, OFFER_SESSIONS),
  };
}

/** The first 16 bytes of the query's SHA-256 in hex: tells two searches' words apart without keeping them. */
export function queryHashOf(query: string): string {
  const digest = sha256(new TextEncoder().encode(query));
  let hex = "";
  for (const byte of digest.subarray(0, 16)) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
