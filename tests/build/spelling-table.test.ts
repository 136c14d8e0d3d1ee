// The build's spelling table (build/spelling-table.ts): the module built in for src/core/search/american-spellings.ts
// returns the package's table made ready, parsed at its first call; the built ctx holds the table and no import of the
// package.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import americanEnglish from "american-english";
import { describe, expect, it } from "vitest";
import { spellingTableModule } from "../../build/spelling-table.ts";
import { americanSpellings, readySpellings } from "../../src/core/search/american-spellings.ts";

const DIST = fileURLToPath(new URL("../../dist", import.meta.url));

describe("the spelling table", () => {
  it("made ready: values trimmed, a pair listed both ways left out, every other British spelling kept", () => {
    const ready = readySpellings(americanEnglish.us_spelling);
    expect(ready.colour).toBe("color");
    expect(ready.aeroplanes).toBe("airplanes");
    expect(americanEnglish.us_spelling.aeroplanes).toBe("airplanes ");
    expect(ready.flyer).toBeUndefined();
    expect(ready.flier).toBeUndefined();
    expect(Object.keys(ready)).toHaveLength(Object.keys(americanEnglish.us_spelling).length - 2);
    expect(Object.values(ready).every((american) => /^[a-z]+$/.test(american))).toBe(true);
    expect(americanSpellings()).toEqual(ready);
  });

  it("built in: the same table, parsed from its string at the first call", async () => {
    const ready = readySpellings(americanEnglish.us_spelling);
    const code = spellingTableModule(ready);
    expect(code.split("\n")).toHaveLength(3);
    const built = (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as {
      americanSpellings: () => Record<string, string>;
    };
    const first = built.americanSpellings();
    expect(first).toEqual(ready);
    expect(built.americanSpellings()).toBe(first);
  });

  it("is in the built program instead of the package", () => {
    const files = readdirSync(DIST).filter((name) => name.endsWith(".js"));
    const texts = files.map((name) => readFileSync(join(DIST, name), "utf8"));
    expect(texts.filter((text) => /from ["']american-english["']|us_spelling/.test(text))).toEqual([]);
    // esbuild prints the table's string in single quotes: its JSON reads as it is.
    const withTable = texts.filter(
      (text) => text.includes('"colour":"color"') && text.includes('"aeroplanes":"airplanes"'),
    );
    expect(withTable).toHaveLength(1);
  });
});
