// Control characters (C0 and DEL, NUL above all) in an id, a path or a file name: they name no real file, and once
// recorded they break every later use. The one definition every check uses: zod schemas take the pattern
// (`z.regex`), plain code the function; zod-free, for the hook path.

/** Matches a whole string that holds no control character. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
export const WITHOUT_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;

/** The message of a schema check that refuses a control character. */
export const CONTROL_CHARACTER_ISSUE = "holds a control character";

/** True when the string holds a control character (NUL included): never a real path, session id or file name. */
export function hasControlCharacter(text: string): boolean {
  return !WITHOUT_CONTROL_CHARACTERS.test(text);
}
