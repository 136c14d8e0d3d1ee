// Chunk groups for the program's build (tsup.config.ts): modules a process loads together, built into one chunk.
//
// esbuild splits code by which entries reach each module: the entries, and every module loaded by `import()` (each
// command, each hook handler, each lazy import). A module reached by a set of entries goes into the chunk of that
// set, so a path through code the commands share with each other (config, the state files, the transcript reader)
// comes out as thirty to fifty small files, and loading a file costs a process about half a millisecond whatever its
// size (bench/run.ts hooks, SessionStart `compact`; bench/run.ts cli, `ctx status`). esbuild has no manual chunks.
//
// A group is the static closure of its roots (ctx's own source files only, less the members of earlier groups and
// the hook handlers). Every entry that reaches a member of a group imports the whole group first, so all members
// are reached by the same entries and land in one chunk. An entry loaded by `import()` becomes a small module that
// imports its groups, then re-exports the entry; a hook handler (found by the table's glob import, which esbuild
// resolves without plugins) gets the group imports prepended. The price: an entry loads the whole of a group it
// touches, so a group holds what its paths load anyway. Entries that run on import (src/bin/ctx.ts, main.ts) are
// left as they are; the groups' imports come first in the wrapper, so the order of evaluation stays a valid one.
import { readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import type { Options } from "tsup";

/**
 * One group: the modules its roots load (paths from the repository's root), less those `without` loads: entries
 * whose paths must stay light (a module they load joins no group, or they would load the whole group).
 */
export interface ChunkGroup {
  roots: readonly string[];
  without?: readonly string[];
}

type EsbuildPlugin = NonNullable<Options["esbuildPlugins"]>[number];
type PluginBuild = Parameters<EsbuildPlugin["setup"]>[0];
/** What the plan reads of esbuild's metafile: each input's imports. */
interface ImportGraph {
  inputs: Record<string, { imports: readonly { path: string; kind: string; external?: boolean }[] }>;
}

/** Hook handlers: loaded by the table's glob import, never statically; never group members. */
const HANDLER = /(^|\/)src\/hooks\/handlers\/[^/]+\.hook\.ts$/;
/** Entries that run on import: not wrapped (src/bin/ctx.ts stays import-free; main.ts starts the program). */
const RUNS_ON_IMPORT = /(^|\/)src\/bin\/(ctx|main)\.ts$/;
const NAMESPACE = "chunk-group";
const INNER = Symbol("chunk-groups: resolving the wrapped entry");

/** What each group holds and which groups an entry imports, from the build's import graph. */
export class ChunkGroupPlan {
  readonly members: string[][];
  readonly #inputs: ImportGraph["inputs"];

  constructor(metafile: ImportGraph, groups: readonly ChunkGroup[]) {
    this.#inputs = metafile.inputs;
    const taken = new Set<string>();
    this.members = groups.map(({ roots, without = [] }) => {
      const light = this.closure(without);
      const members = [...this.closure(roots)].filter(
        (path) =>
          path.startsWith("src/") &&
          !HANDLER.test(path) &&
          !RUNS_ON_IMPORT.test(path) &&
          !light.has(path) &&
          !taken.has(path),
      );
      for (const path of members) taken.add(path);
      return members;
    });
  }

  /** Every module `roots` load without `import()`. */
  closure(roots: readonly string[]): Set<string> {
    const seen = new Set(roots);
    const stack = [...roots];
    for (let path = stack.pop(); path !== undefined; path = stack.pop()) {
      for (const edge of this.#inputs[path]?.imports ?? []) {
        if (edge.kind === "dynamic-import" || edge.external === true || seen.has(edge.path)) continue;
        seen.add(edge.path);
        stack.push(edge.path);
      }
    }
    return seen;
  }

  /** The groups `entry` must import: those it reaches a member of. */
  groupsOf(entry: string): number[] {
    const reached = this.closure([entry]);
    return this.members.flatMap((members, index) => (members.some((path) => reached.has(path)) ? [index] : []));
  }
}

/** The esbuild plugin. */
export function chunkGroupsPlugin(groups: readonly ChunkGroup[], root = process.cwd()): EsbuildPlugin {
  return {
    name: "chunk-groups",
    setup(build: PluginBuild) {
      let plan: ChunkGroupPlan | undefined;
      const planned = () => {
        if (plan === undefined) throw new Error("chunk-groups: no plan (the first pass did not run)");
        return plan;
      };
      const importsOf = (path: string) =>
        planned()
          .groupsOf(relative(root, path))
          .map((index) => `import "${NAMESPACE}:${index}";`)
          .join("");
      // The first pass: the same build, without this plugin and without output, for its import graph.
      build.onStart(async () => {
        const { metafile } = await build.esbuild.build({
          ...build.initialOptions,
          plugins: (build.initialOptions.plugins ?? []).filter((plugin) => plugin.name !== "chunk-groups"),
          write: false,
          metafile: true,
          sourcemap: false,
        });
        if (metafile === undefined) throw new Error("chunk-groups: the first pass gave no metafile");
        plan = new ChunkGroupPlan(metafile, groups);
      });
      build.onResolve({ filter: new RegExp(`^${NAMESPACE}:\\d+$`) }, (args) => ({
        path: args.path,
        namespace: NAMESPACE,
      }));
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
        contents: (planned().members[Number(args.path.slice(NAMESPACE.length + 1))] ?? [])
          .map((path) => `import ${JSON.stringify(resolve(root, path))};\n`)
          .join(""),
        resolveDir: root,
        loader: "js",
      }));
      // An entry or a module loaded by import(): a wrapper importing its groups, then the module.
      build.onResolve({ filter: /.*/ }, async (args) => {
        if ((args.kind !== "dynamic-import" && args.kind !== "entry-point") || args.pluginData === INNER) {
          return undefined;
        }
        const found = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: INNER,
        });
        const own = !found.external && found.errors.length === 0 && relative(root, found.path).startsWith("src/");
        if (!own || RUNS_ON_IMPORT.test(found.path)) return found;
        return { path: found.path, namespace: `${NAMESPACE}-entry` };
      });
      build.onLoad({ filter: /.*/, namespace: `${NAMESPACE}-entry` }, (args) => ({
        contents: `${importsOf(args.path)}\nexport * from ${JSON.stringify(args.path)};\n`,
        resolveDir: dirname(args.path),
        loader: "ts",
      }));
      // On the handler's first line, so its source map stays true.
      build.onLoad({ filter: HANDLER }, (args) => ({
        contents: `${importsOf(args.path)}${readFileSync(args.path, "utf8")}`,
        loader: "ts",
      }));
    },
  };
}
