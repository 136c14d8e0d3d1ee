// The build's spelling table (build/spelling-table.ts): the module built in for `american-english` holds the package's
// table, parsed at its first read; the built ctx holds the table and no import of the package.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import americanEnglish from "american-english";
import { describe, expect, it } from "vitest";
import { spellingTableModule } from "../../build/spelling-table.ts";

const DIST = fileURLToPath(new URL("../../dist", import.meta.url));

describe("the spelling table built in", () => {
  it("reads as the package's table, parsed from its string at the first read", async () => {
    const code = spellingTableModule(americanEnglish.us_spelling);
    expect(code.split("\n")).toHaveLength(3);
    const built = (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as {
      default: { us_spelling: Record<string, string> };
    };
    const first = built.default.us_spelling;
    expect(first).toEqual(americanEnglish.us_spelling);
    expect(first.colour).toBe("color");
    expect(built.default.us_spelling).toBe(first);
  });

  it("is in the built program instead of the package", () => {
    const files = readdirSync(DIST).filter((name) => name.endsWith(".js"));
    const texts = files.map((name) => readFileSync(join(DIST, name), "utf8"));
    expect(texts.filter((text) => /from ["']american-english["']/.test(text))).toEqual([]);
    // esbuild prints the table's string in single quotes: its JSON reads as it is.
    const withTable = texts.filter((text) => text.includes("get us_spelling()") && text.includes('"colour":"color"'));
    expect(withTable).toHaveLength(1);
  });
});
