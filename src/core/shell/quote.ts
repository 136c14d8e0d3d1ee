// The one shell quoting for every command ctx prints or runs through a shell (fork, fork-at-point, archive restore,
// doctor and init hints, the status-line command): each argument becomes one POSIX shell word, whatever it holds
// (quotes, `;`, `$()`, backticks, newlines), so a session id, a folder or a path from a transcript is never code.

/** Words any POSIX shell reads as themselves: letters, digits and `@%+=:,./_-` (no glob, no `~` at the start). */
const SAFE_WORD = /^[\w@%+=:,./-]+$/;

/** `text` as one POSIX shell word: bare when it is a safe word, else single-quoted (`'` written as `'\''`). */
export function quoteShellWord(text: string): string {
  if (SAFE_WORD.test(text)) return text;
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A command line from its argv, each argument quoted on its own. */
export function shellCommand(argv: readonly string[]): string {
  return argv.map(quoteShellWord).join(" ");
}
