// What a Claude Code session id looks like: a transcript is `<projects>/<folder>/<uuid>.jsonl`, and `--resume` and
// `/resume` take that UUID. An id from a file name or an index row is checked against it before it goes into a
// command; one that fails is still shown, quoted (core/shell/quote.ts), never raw.

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `text` has the shape of Claude Code's session ids (a UUID). */
export function isSessionId(text: string): boolean {
  return SESSION_ID.test(text);
}
