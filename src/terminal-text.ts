// The one sanitizer for text that reaches a terminal or a log line (issue #21, break 4): text from transcripts,
// chat users, file names or the network can hold ESC sequences (OSC 52 writes the clipboard, OSC 0 the window
// title, CSI 2J clears the screen). Every control a terminal acts on is shown escaped (`\u001b`), never emitted.
// The escapes are JSON's, so a JSON document passes through unchanged in meaning (and, from formatJson, in bytes).

/** A code point a terminal acts on: C0 (but tab and newline), DEL, C1, the line and paragraph separators, and the
 *  bidirectional embeddings, overrides and isolates (terminals with bidi support reorder text by them). */
function isTerminalControl(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

function escapeCode(code: number): string {
  if (code === 0x0a) return "\\n";
  if (code === 0x0d) return "\\r";
  if (code === 0x09) return "\\t";
  return `\\u${code.toString(16).padStart(4, "0")}`;
}

/** Every code point isTerminalControl names; and the same without newline and tab, which a terminal's text keeps. A
 *  regular expression runs as native code from the start: most text holds none, and a new process's loop over each
 *  character runs in the interpreter (bench/run.ts cli, `ctx search`). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028-\u202e\u2066-\u2069]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const CONTROL_BUT_LAYOUT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028-\u202e\u2066-\u2069]/;

function sanitize(text: string, keepLayout: boolean): string {
  if (!(keepLayout ? CONTROL_BUT_LAYOUT : ANY_CONTROL).test(text)) return text;
  let out = "";
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!isTerminalControl(code)) continue;
    // Text for a terminal keeps its layout: newline, tab, and a carriage return right before a newline (CRLF).
    if (keepLayout && (code === 0x0a || code === 0x09 || (code === 0x0d && text.charCodeAt(i + 1) === 0x0a))) continue;
    out += text.slice(start, i) + escapeCode(code);
    start = i + 1;
  }
  return start === 0 ? text : out + text.slice(start);
}

/** Text for a terminal (stdout, stderr, a prompt's label): newlines and tabs kept, every other control escaped. */
export function sanitizeTerminalText(text: string): string {
  return sanitize(text, true);
}

/** One log line, or one field within a line (a title, a remote, an error from the team server, a row's value, an error
 *  message): like sanitizeTerminalText, and newline, carriage return and tab escaped too, so it never spans lines (a
 *  forged line cannot be slipped into a log or a command's output). */
export function sanitizeLogLine(text: string): string {
  return sanitize(text, false);
}
