// An esbuild plugin: src/core/search/american-spellings.ts (the `american-english` package's British -> American
// table, made ready to read) is built in as its result, computed here from the package: one string of JSON, parsed at
// the first call. Evaluating the package (a CommonJS module of two object literals of 1,738 and 1,724 properties) cost
// a new process 8-9 ms, and making its table ready 4-10 ms more; every `ctx search` and indexing process tokenizes text.
// The package stays the source: its table is read from it when the program is built.
import { readySpellings } from "../src/core/search/american-spellings.ts";

/** The module's source file, which the build replaces. */
const SOURCE = /[\\/]src[\\/]core[\\/]search[\\/]american-spellings\.ts$/;

interface PluginBuild {
  onLoad: (options: { filter: RegExp }, callback: () => Promise<{ contents: string; loader: "js" }>) => void;
}

/** The module built in: `americanSpellings()` returns `table`, parsed from a string at the first call. */
export function spellingTableModule(table: Readonly<Record<string, string>>): string {
  return [
    `const text = ${JSON.stringify(JSON.stringify(table))};`,
    "let table;",
    "export function americanSpellings() { if (table === undefined) table = JSON.parse(text); return table; }",
  ].join("\n");
}

export const spellingTablePlugin = {
  name: "spelling-table",
  setup(build: PluginBuild) {
    build.onLoad({ filter: SOURCE }, async () => {
      const americanEnglish = (await import("american-english")).default;
      return { contents: spellingTableModule(readySpellings(americanEnglish.us_spelling)), loader: "js" };
    });
  },
};
