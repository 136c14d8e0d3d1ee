// Formatting of command results for people and for scripts (`--json`), and the one way text reaches the CLI's stdout
// and stderr (`writerOf`): sanitized first, coloured after. The only module besides the logger allowed to think
// about the console.
import { sanitizeLogLine, sanitizeTerminalText } from "../terminal-text.ts";
import type { Paint } from "./command-io.ts";

/** JSON for scripts. Beyond JSON.stringify's escapes (every C0 control), DEL, the C1 controls and the line and
 *  paragraph separators are written as `\u` escapes too: the same value, and bytes the sanitizer leaves alone. */
export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2).replace(JSON_UNSAFE, escapeUnicode)}\n`;
}

const JSON_UNSAFE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escapeUnicode(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** Aligned "label  value" lines for human output; each row one line, whatever its value holds (a server's or a
 *  transcript's text: a newline in it is shown as `\n`, so it can never forge a row). */
export function formatRows(rows: ReadonlyArray<readonly [string, string]>): string {
  const width = Math.max(0, ...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `${label.padEnd(width)}  ${sanitizeLogLine(value)}\n`).join("");
}

/**
 * What a command's `out`/`err` is: the text is sanitized (no control a terminal acts on, whatever a transcript, a
 * chat user or a path put in it), then `paint` may add ctx's own colour to the safe text, then it is written.
 * Colour added before this step would be escaped: commands paint through the second argument.
 */
export function writerOf(write: (text: string) => void): (text: string, paint?: Paint) => void {
  return (text, paint) => {
    const safe = sanitizeTerminalText(text);
    write(paint === undefined ? safe : paint(safe));
  };
}
