// Text that becomes a child process's argument or a Claude session's seed (issue #22, break 5): `spawn` refuses an
// argument holding NUL, and other control characters have no place in a system prompt or a prompt. One cleaner
// for all of it: C0 controls (but newline and tab), DEL and C1 are removed; everything else, non-ASCII included,
// stays as it is. Idempotent, so text cleaned once (a stored summary) passes through again unchanged.

/** A control removed from command-line text: C0 except tab (0x09) and newline (0x0a), DEL, and C1. */
function isCommandControl(code: number): boolean {
  return (code < 0x20 && code !== 0x09 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f);
}

/** `text` without NUL and the other control characters, safe as a process argument or a seed. */
export function cleanCommandText(text: string): string {
  let out = "";
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (!isCommandControl(text.charCodeAt(i))) continue;
    out += text.slice(start, i);
    start = i + 1;
  }
  return start === 0 ? text : out + text.slice(start);
}
