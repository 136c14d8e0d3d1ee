// An esbuild plugin: the `american-english` package (src/core/search/word-forms.ts reads its British -> American
// table) is built in as its one table, held in a string that is parsed at its first read. The package itself is a
// CommonJS module of two object literals of 1,738 and 1,724 properties: evaluated, they cost a new process 8-9 ms, and
// every `ctx search` and indexing process tokenizes text; JSON.parse of the same table costs well under a millisecond.
// The package stays the source: its table is read from it when the program is built.
import { createRequire } from "node:module";

const NAMESPACE = "ctx-spelling-table";

interface PluginBuild {
  onResolve: (
    options: { filter: RegExp },
    callback: (args: { path: string }) => { path: string; namespace: string } | undefined,
  ) => void;
  onLoad: (options: { filter: RegExp; namespace: string }, callback: () => { contents: string; loader: "js" }) => void;
}

/** The module built in for `american-english`: its `us_spelling` table, parsed from a string at the first read. */
export function spellingTableModule(table: Readonly<Record<string, string>>): string {
  const json = JSON.stringify(table);
  return [
    `const text = ${JSON.stringify(json)};`,
    "let table;",
    "export default { get us_spelling() { return (table ??= JSON.parse(text)); } };",
  ].join("\n");
}

export const spellingTablePlugin = {
  name: "spelling-table",
  setup(build: PluginBuild) {
    build.onResolve({ filter: /^american-english$/ }, (args) => ({ path: args.path, namespace: NAMESPACE }));
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, () => {
      const americanEnglish = createRequire(import.meta.url)("american-english") as {
        us_spelling: Record<string, string>;
      };
      return { contents: spellingTableModule(americanEnglish.us_spelling), loader: "js" };
    });
  },
};
