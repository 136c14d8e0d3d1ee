// A session's note as the library keeps it: one line, bounded, its secrets redacted (core/redact, as everything ctx
// persists) before it is stored. A 1 MB note or an escape sequence is refused with a clear line, never scanned whole.
import { CtxError } from "../../errors.ts";
import { redactText } from "../redact/redact.ts";
import { hasControlCharacter } from "../text/control-characters.ts";
import { MAX_NOTE_BYTES } from "./annotation.ts";

/**
 * The note as stored: trimmed, one line, at most MAX_NOTE_BYTES, its secrets redacted (core/redact, as everything
 * ctx persists). Throws USAGE for an empty, multi-line, oversized or control-character note.
 */
export function prepareNote(
  raw: string,
  options: { allowlist?: readonly string[] } = {},
): { note: string; redactions: number } {
  // Measured before anything else: a 1 MB note is refused without being scanned or echoed (UTF-8 takes at least a
  // byte per UTF-16 unit, so a longer string is over without encoding it).
  const bytes = raw.length > MAX_NOTE_BYTES ? raw.length : new TextEncoder().encode(raw).length;
  if (bytes > MAX_NOTE_BYTES) {
    throw new CtxError("USAGE", `a note is at most ${MAX_NOTE_BYTES} bytes; this one has ${bytes} or more`, {
      hint: "keep the note to a few sentences (the session itself holds the rest)",
    });
  }
  const note = raw.trim().normalize("NFC");
  if (note === "") throw new CtxError("USAGE", "the note is empty", { hint: "to remove a note, use --clear" });
  if (hasControlCharacter(note)) {
    throw new CtxError("USAGE", "a note is one line of text: it holds a control character (a newline or an escape)", {
      hint: "write the note on one line, without terminal escape sequences",
    });
  }
  const redacted = redactText(note, options.allowlist === undefined ? {} : { allowlist: options.allowlist });
  return { note: redacted.text, redactions: redacted.findings.length };
}
