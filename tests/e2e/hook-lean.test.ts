// The hook path must stay lean (docs/performance.md): `ctx hook …` may not load the MCP SDK, SQLite,
// full zod or commander. Checked on the built bundle by recording every module the process resolves;
// zod/mini is bundled into ctx's own chunks, so full zod would show as its classic classes in them.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sourcesOf, staticClosure } from "../helpers/built-files.ts";
import { CTX_BIN, runCtx } from "./ctx-process.ts";

const recorder = fileURLToPath(new URL("./record-imports.mjs", import.meta.url));

/** The modules a `ctx` process resolves; `dir` (a fresh one by default) holds its project and CTX_HOME. */
async function modulesLoadedBy(
  args: string[],
  stdin: string,
  { env = {}, dir = mkdtempSync(join(tmpdir(), "ctx-lean-")) }: { env?: NodeJS.ProcessEnv; dir?: string } = {},
): Promise<string[]> {
  const project = join(dir, "repo");
  mkdirSync(join(project, ".git"), { recursive: true });
  const list = join(dir, "imports.txt");
  const result = await runCtx(args, {
    cwd: project,
    stdin: stdin.replaceAll("PROJECT", project),
    env: { ...env, CTX_HOME: join(dir, "home"), CTX_RECORD_IMPORTS: list, NODE_OPTIONS: `--import=${recorder}` },
  });
  expect(result.code).toBe(0);
  return readFileSync(list, "utf8").split("\n");
}

const FORBIDDEN = [/@modelcontextprotocol/, /node:sqlite/, /better-sqlite3/, /\/node_modules\/zod\//, /\/commander\//];
/** A class only full (classic) zod defines; zod/mini's counterpart is "ZodMiniObject". */
const FULL_ZOD_MARKER = '"ZodObject"';
const ZOD_MINI_MARKER = '"ZodMiniObject"';
/** commander is bundled into ctx's chunks (tsup.config.ts): esbuild names its files in them. */
const COMMANDER_MARKER = "// node_modules/.pnpm/commander@";

function ownChunks(modules: string[]): string[] {
  return modules.filter((url) => url.startsWith("file:") && url.includes("/dist/")).map((url) => fileURLToPath(url));
}

describe("hook path stays lean", () => {
  it.each(["session-start", "session-end", "post-tool-use"])(
    "`ctx hook %s` loads no MCP SDK, SQLite, full zod or commander",
    async (event) => {
      const input = JSON.stringify({
        session_id: "s",
        transcript_path: "/t.jsonl",
        cwd: "PROJECT",
        hook_event_name: event,
        source: "startup",
        reason: "other",
        tool_name: "Bash",
      });
      const modules = await modulesLoadedBy(["hook", event], input);
      const chunks = ownChunks(modules);
      // The recorder works: the dispatcher's code is among what was loaded (its chunk's name varies by build).
      expect(chunks.some((file) => readFileSync(file, "utf8").includes("// src/hooks/runtime/dispatch.ts"))).toBe(true);
      const withFullZod = chunks.filter((file) => readFileSync(file, "utf8").includes(FULL_ZOD_MARKER));
      expect(withFullZod).toEqual([]);
      expect(chunks.filter((file) => readFileSync(file, "utf8").includes(COMMANDER_MARKER))).toEqual([]);
      for (const pattern of FORBIDDEN)
        expect(
          modules.filter((url) => pattern.test(url)),
          String(pattern),
        ).toEqual([]);
    },
  );

  it.each([
    ["post-tool-use", "PostToolUse"],
    ["stop", "Stop"],
  ])(
    "`ctx hook %s` loads no zod at all (its input, mark and guard state: checkers compiled at build time)",
    async (event, name) => {
      const common = { session_id: "s", transcript_path: "/t.jsonl", cwd: "PROJECT", hook_event_name: name };
      const input = JSON.stringify({ ...common, tool_name: "Bash" });
      // A config layer (a CTX_* variable) too: its first run validates it (zod, loaded then), the next reads the cache.
      const options = { env: { CTX_GUARD__WARNING_PERCENT: "30" }, dir: mkdtempSync(join(tmpdir(), "ctx-lean-")) };
      const first = ownChunks(await modulesLoadedBy(["hook", event], input, options));
      expect(first.filter((file) => readFileSync(file, "utf8").includes(ZOD_MINI_MARKER))).not.toEqual([]);
      const chunks = ownChunks(await modulesLoadedBy(["hook", event], input, options));
      expect(chunks.some((file) => readFileSync(file, "utf8").includes("// src/hooks/runtime/dispatch.ts"))).toBe(true);
      expect(chunks.filter((file) => readFileSync(file, "utf8").includes(ZOD_MINI_MARKER))).toEqual([]);
    },
  );

  it("SessionStart after a compaction loads its code in a few files (build/chunk-groups.ts), no zod and no node:crypto", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ctx-lean-"));
    const transcript = join(dir, "t.jsonl");
    const lines = Array.from({ length: 40 }, (_, i) => [
      { type: "user", uuid: `u${i}`, sessionId: "s", message: { role: "user", content: `fix src/app.ts, step ${i}` } },
      {
        type: "assistant",
        uuid: `a${i}`,
        sessionId: "s",
        message: { role: "assistant", id: `m${i}`, content: [{ type: "text", text: `changed src/app.ts (${i})` }] },
      },
    ]).flat();
    writeFileSync(transcript, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
    const common = { session_id: "s", transcript_path: transcript, cwd: "PROJECT" };
    await modulesLoadedBy(
      ["hook", "pre-compact"],
      JSON.stringify({ ...common, hook_event_name: "PreCompact", trigger: "auto" }),
      {
        dir,
      },
    );
    const input = JSON.stringify({ ...common, hook_event_name: "SessionStart", source: "compact" });
    const modules = await modulesLoadedBy(["hook", "session-start"], input, { dir });
    // It re-injected what PreCompact saved: the audit's source was read.
    const chunks = ownChunks(modules);
    const sources = chunks.flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/^\/\/ (src\/\S+)$/gm)].map((m) => m[1]),
    );
    expect(sources).toContain("src/hooks/injection/compaction-audit-source.ts");
    // esbuild alone split this path into 47 files (each about half a millisecond to load); its hot path's groups
    // make 7, here and in bench/run.ts hooks.
    expect(chunks.length).toBeLessThanOrEqual(10);
    // No zod: its input, the injection, the sessions seen, a lock's owner, a stored audit and the transcript's lines
    // are checked with checkers compiled from their schemas (build/compile-schemas.ts).
    expect(chunks.filter((file) => readFileSync(file, "utf8").includes(ZOD_MINI_MARKER))).toEqual([]);
    // Its tokens, temp names and small hashes need no node:crypto (core/text/random-hex.ts, core/hash/sha256.ts).
    expect(modules).toContain("builtin:fs");
    expect(modules).not.toContain("builtin:crypto");
  });

  it("PreCompact's redaction thread loads only the redaction code: its file and what that imports", () => {
    // The worker starts by loading the file that holds src/store/snapshots/redact-thread.ts (it runs that module);
    // in a group shared with the program it loaded 15 files and zod before it redacted a block.
    const dist = dirname(CTX_BIN);
    const holder = readdirSync(dist).find(
      (name) =>
        name.endsWith(".js") &&
        readFileSync(join(dist, name), "utf8").includes("// src/store/snapshots/redact-thread.ts"),
    );
    expect(holder).toBeDefined();
    const files = [...staticClosure(join(dist, holder ?? ""))];
    const sources = sourcesOf(files);
    expect(sources).toContain("src/core/redact/redact.ts");
    // Beside the redaction, main.ts's group (the small modules every path loads: tsup.config.ts `withMain`), and
    // nothing of the hook's own: not the state files, the saved context or the snapshots' store.
    for (const heavy of [
      "src/store/files/state-file.ts",
      "src/store/files/container.ts",
      "src/core/context/extract.ts",
      "src/store/snapshots/snapshots.ts",
      "src/hooks/handlers/pre-compact.hook.ts",
    ]) {
      expect(sources).not.toContain(heavy);
    }
    expect(files.filter((file) => readFileSync(file, "utf8").includes(ZOD_MINI_MARKER))).toEqual([]);
    expect(files.length).toBeLessThanOrEqual(3);
  });

  it("the checks would catch a heavy import: `ctx serve` loads commander, the MCP SDK and full zod", async () => {
    const modules = await modulesLoadedBy(["serve"], "");
    expect(ownChunks(modules).some((file) => readFileSync(file, "utf8").includes(COMMANDER_MARKER))).toBe(true);
    expect(modules.some((url) => /@modelcontextprotocol/.test(url))).toBe(true);
    expect(modules.some((url) => /\/node_modules\/zod\//.test(url))).toBe(true);
  });
});
