// The page's own links, built from ids only: a transcript's text never becomes a link's target.

/** A session's page, with the line a search matched when there is one. */
export function sessionHref(sessionId: string, matchUuid?: string | null): string {
  const at = matchUuid == null ? "" : `?at=${encodeURIComponent(matchUuid)}`;
  return `/session/${encodeURIComponent(sessionId)}${at}`;
}
