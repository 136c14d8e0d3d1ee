// Quoting is checked by a real shell: each hostile string, quoted, must reach the program as exactly one argument.
import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { quoteShellWord, shellCommand } from "./quote.ts";

/** The arguments `sh` makes of `line`: printf writes each, NUL-terminated. */
function argvThroughSh(line: string): string[] {
  const out = execFileSync("sh", ["-c", `set -- ${line}; for a in "$@"; do printf '%s\\0' "$a"; done`], {
    encoding: "utf8",
  });
  return out.split("\0").slice(0, -1);
}

const HOSTILE = [
  "a;touch PWN2;#",
  "$(touch PWN3)",
  "`touch PWN4`",
  "it's",
  "'",
  "''",
  '"double" and \\ backslash',
  "line one\nline two",
  "tab\there",
  "~",
  "~/x",
  "*",
  "-n",
  "a b",
  "$HOME",
  "!event",
  "{a,b}",
  "",
  "x|y&z>w<v",
];

describe("quoteShellWord", () => {
  it("leaves safe words bare (ids, paths, flags)", () => {
    for (const word of ["4d5611e5-0000-4000-8000-000000000001", "/home/user/app", "--fork-session", "a.b=c:d,e@f%g+h"])
      expect(quoteShellWord(word)).toBe(word);
  });

  it("quotes everything else, and a real sh reads each one back as one argument", () => {
    for (const text of HOSTILE) expect(argvThroughSh(quoteShellWord(text))).toEqual([text]);
    expect(argvThroughSh(shellCommand(HOSTILE))).toEqual(HOSTILE);
  });

  it("round-trips any string without NUL through sh", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: "binary" }).map((s) => s.replaceAll("\0", "")),
          { maxLength: 4 },
        ),
        (argv) => {
          expect(argvThroughSh(shellCommand(argv))).toEqual(argv);
        },
      ),
      { numRuns: 60 },
    );
  });
});
