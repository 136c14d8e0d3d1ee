// The lean entry (src/bin/lean.ts) is built on its own into dist/lean/ (tsup.config.ts): lean.js turns on the code
// cache and imports lean-run.js (src/hooks/runtime/lean.ts and the common path of its events). Built inside the
// program, the same code would be split by what it shares with the program's many lazily loaded commands into
// twenty to forty chunks, each a file every tool call's process loads (bench/run.ts hooks). Its rare paths come from
// the program's build through one door, src/hooks/runtime/rare-paths.ts (dist/rare-paths.js; that file says what
// may cross): built into the lean build, they would split its common path into more chunks.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** Where dist/ctx.js finds the lean build, relative to itself. */
export const LEAN_OUTPUT = "./lean/lean.js";
export const DOOR_SOURCE = "src/hooks/runtime/rare-paths.ts";
/** The door's name among the program's entries: dist/rare-paths.js. */
export const DOOR_ENTRY = "rare-paths";

/** The modules the door re-exports (its `from "…"` list), as absolute paths. */
export function doorModules(root = process.cwd()): Set<string> {
  const source = resolve(root, DOOR_SOURCE);
  const specifiers = [...readFileSync(source, "utf8").matchAll(/^export \{[^}]*\} from "([^"]+)";$/gm)];
  return new Set(specifiers.map((match) => resolve(dirname(source), match[1] as string)));
}

interface PluginBuild {
  onResolve: (
    options: { filter: RegExp },
    callback: (args: {
      path: string;
      importer: string;
      kind: string;
      resolveDir: string;
    }) => { path: string; external: boolean } | { errors: { text: string }[] } | undefined,
  ) => void;
}

/** The program's build: ctx.ts's `import("./lean.ts")` -> the lean build's output. */
export const leanEntryPlugin = {
  name: "lean-entry",
  setup(build: PluginBuild) {
    build.onResolve({ filter: /^\.\/lean\.ts$/ }, (args) =>
      args.importer.endsWith("/src/bin/ctx.ts") ? { path: LEAN_OUTPUT, external: true } : undefined,
    );
  },
};

/** The lean build: lean.ts's import of its runtime -> ./lean-run.js (the build's second entry); a door module's
 *  dynamic import -> ../rare-paths.js; any other dynamic import is a build error. */
export const leanBuildPlugin = {
  name: "lean-build",
  setup(build: PluginBuild) {
    const door = doorModules();
    build.onResolve({ filter: /\.ts$/ }, (args) => {
      if (args.kind !== "dynamic-import") return undefined;
      if (args.importer.endsWith("/src/bin/lean.ts") && args.path === "../hooks/runtime/lean.ts") {
        return { path: "./lean-run.js", external: true };
      }
      if (door.has(resolve(args.resolveDir, args.path))) return { path: `../${DOOR_ENTRY}.js`, external: true };
      return {
        errors: [
          {
            text: `the lean build loads no code lazily but through ${DOOR_SOURCE}: ${args.path} (from ${args.importer})`,
          },
        ],
      };
    });
  },
};
