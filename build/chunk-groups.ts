// Chunk groups for the program's build (tsup.config.ts): the modules of each path a person waits on, in a few chunks.
//
// esbuild splits code by which entries reach each module: the entries, and every module loaded by `import()` (each
// command, each hook handler, each lazy import). A module reached by a set of entries goes into the chunk of that
// set, so a path through code the commands share with each other (config, the state files, the transcript reader)
// comes out as thirty to fifty small files, and loading a file costs a process about half a millisecond whatever its
// size (bench/run.ts hooks, SessionStart `compact`; bench/run.ts cli). esbuild has no manual chunks.
//
// The build names its hot paths, each by the modules it loads (its roots; src/bin/main.ts, which loads for every
// one of them, is implied). A module is keyed by the hot paths that load it, and each key is a group: what main.ts
// loads, then "loaded by `ctx status` and `ctx search` only", "by every path", and so on. Other paths (a hook the
// person does not wait on every time) key only the modules no hot path loads: each more key splits the groups the
// hot paths load, so they load the hot paths' groups they touch whole. A hot path loads exactly
// the groups whose key holds it: only code it runs, in a handful of chunks. To put a group in one chunk, every entry
// that reaches one of its members imports the whole group first, so all members are reached by the same entries. An
// entry loaded by `import()` becomes a small module that imports its groups, then re-exports the entry; a hook
// handler (found by the table's glob import, which esbuild resolves without plugins) gets the imports prepended. An
// entry off the hot paths may so load code it does not run: a path's lazy imports belong in its roots (a hot path's
// test counts its files: tests/e2e/hook-lean.test.ts, cli-lean.test.ts). The CLI's modules (src/cli/) are grouped
// apart from the rest, so that no hook loads commander through a group it shares with a command. Entries that run on import
// (src/bin/ctx.ts, main.ts) are left as they are; the groups' imports come first, so the order of evaluation stays a
// valid one.
import { readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import type { Options } from "tsup";

/** The hot paths: a name, and the modules (paths from the repository's root) the path loads, by `import()` too. */
export type HotPaths = Readonly<Record<string, readonly string[]>>;

type EsbuildPlugin = NonNullable<Options["esbuildPlugins"]>[number];
type PluginBuild = Parameters<EsbuildPlugin["setup"]>[0];
/** What the plan reads of esbuild's metafile: each input's imports, and how many bytes of each the outputs hold. */
interface ImportGraph {
  inputs: Record<string, { imports: readonly { path: string; kind: string; external?: boolean }[] }>;
  outputs?: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
}

/** Hook handlers: loaded by the table's glob import, never statically; never group members. */
const HANDLER = /(^|\/)src\/hooks\/handlers\/[^/]+\.hook\.ts$/;
/** Entries that run on import: not wrapped (src/bin/ctx.ts stays import-free; main.ts starts the program). */
const RUNS_ON_IMPORT = /(^|\/)src\/bin\/(ctx|main)\.ts$/;
/** The CLI's own modules (commander's program, help, the commands): grouped apart from the rest. */
const CLI = /^src\/cli\//;
/** What every hot path loads first. */
const MAIN = "src/bin/main.ts";
const NAMESPACE = "chunk-group";
const INNER = Symbol("chunk-groups: resolving the wrapped entry");

/** What each group holds and which groups an entry imports, from the build's import graph. */
export class ChunkGroupPlan {
  /** Each group's members, and the hot paths that load them (none: what main.ts loads). */
  readonly groups: { key: string; paths: string[]; members: string[] }[] = [];
  readonly #inputs: ImportGraph["inputs"];

  /**
   * `others`: paths that key only the modules no hot path loads (they load whole the hot paths' groups they touch).
   * `withMain`: small modules nearly every path loads, loaded with main.ts's own (group 0): one file for them all.
   */
  constructor(metafile: ImportGraph, paths: HotPaths, others: HotPaths = {}, withMain: readonly string[] = []) {
    this.#inputs = metafile.inputs;
    // A module that leaves no code (types only) is no member: a group of such modules would be an empty chunk, one
    // more file to load for nothing.
    const withCode = new Set(
      Object.values(metafile.outputs ?? {}).flatMap(({ inputs }) =>
        Object.entries(inputs).flatMap(([path, { bytesInOutput }]) => (bytesInOutput > 0 ? [path] : [])),
      ),
    );
    const groupable = (path: string) =>
      path.startsWith("src/") &&
      !HANDLER.test(path) &&
      !RUNS_ON_IMPORT.test(path) &&
      (metafile.outputs === undefined || withCode.has(path));
    const base = [...this.closure([MAIN, ...withMain])].filter(groupable);
    if (base.length > 0) this.groups.push({ key: "main", paths: [], members: base });
    const taken = new Set(base);
    const keys = new Map<string, { key: string; paths: string[]; members: string[] }>();
    const reach = (named: HotPaths) =>
      Object.entries(named).map(([name, roots]) => ({ name, modules: this.closure(roots) }));
    const hot = reach(paths);
    const other = reach(others);
    const loading = (reached: typeof hot, path: string) =>
      reached.filter(({ modules }) => modules.has(path)).map(({ name }) => name);
    for (const path of Object.keys(this.#inputs)) {
      if (!groupable(path) || taken.has(path)) continue;
      const byHot = loading(hot, path);
      const by = byHot.length > 0 ? byHot : loading(other, path);
      if (by.length === 0) continue;
      // The CLI's modules in groups of their own: no group holds both, so a path off the CLI (a hook's lazy import
      // of the store) never loads commander through a group it shares with a command.
      const key = `${CLI.test(path) ? "cli:" : ""}${by.join(" ")}`;
      let group = keys.get(key);
      if (group === undefined) {
        group = { key, paths: by, members: [] };
        keys.set(key, group);
        this.groups.push(group);
      }
      group.members.push(path);
    }
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

  /**
   * The groups `entry` must import: those it reaches a member of, with what the groups it imports reach in turn
   * (a group's members load modules of other groups).
   */
  groupsOf(entry: string): number[] {
    const chosen = new Set<number>();
    for (let reached = this.closure([entry]); ; ) {
      const more = this.groups.flatMap(({ members }, index) =>
        !chosen.has(index) && members.some((path) => reached.has(path)) ? [index] : [],
      );
      if (more.length === 0) return [...chosen].sort((a, b) => a - b);
      for (const index of more) chosen.add(index);
      reached = this.closure([entry, ...[...chosen].flatMap((index) => this.groups[index]?.members ?? [])]);
    }
  }
}

/** The esbuild plugin: the plan's arguments (see ChunkGroupPlan). */
export function chunkGroupsPlugin(
  { hot, others = {}, withMain = [] }: { hot: HotPaths; others?: HotPaths; withMain?: readonly string[] },
  root = process.cwd(),
): EsbuildPlugin {
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
        plan = new ChunkGroupPlan(metafile, hot, others, withMain);
      });
      build.onResolve({ filter: new RegExp(`^${NAMESPACE}:\\d+$`) }, (args) => ({
        path: args.path,
        namespace: NAMESPACE,
      }));
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
        contents: (planned().groups[Number(args.path.slice(NAMESPACE.length + 1))]?.members ?? [])
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
      // main.ts loads group 0 whole (its own modules and `withMain`'s), so that they make one chunk.
      build.onLoad({ filter: /(^|\/)src\/bin\/main\.ts$/ }, (args) => ({
        contents: `${planned().groups[0]?.key === "main" ? `import "${NAMESPACE}:0";` : ""}${readFileSync(args.path, "utf8")}`,
        loader: "ts",
      }));
    },
  };
}
