// `ctx export` on one machine and `ctx import` on another, through the built binary: two real sessions (one with
// subagents) exported from a checkout, imported into a second HOME whose clone of the same remote sits at another
// path, resumed by the printed command's folder, seen by `ctx index` there. Then each hostile bundle, refused with
// one clear line and Claude Code's folder on the second machine left exactly as it was.
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ExportReportSchema, ImportReportSchema } from "../../src/transplant/bundle-report.ts";
import { transcriptIn, writeTestBundle } from "../helpers/bundle-files.ts";
import { FIXTURE, LONG_SESSION } from "../helpers/claude-projects.ts";
import { createGitCheckout, SPOTTER_CWD } from "../helpers/team-checkout.ts";
import { runCtx } from "./ctx-process.ts";

const LONG_CWD = "/home/USER/projects/spotter-worktrees/spotter-dov";
const base = mkdtempSync(join(tmpdir(), "ctx-bundle-e2e-"));
const machineA = { HOME: join(base, "a", "home"), CTX_HOME: join(base, "a", "ctx"), CLAUDE_CONFIG_DIR: "" };
const machineB = { HOME: join(base, "b", "home"), CTX_HOME: join(base, "b", "ctx"), CLAUDE_CONFIG_DIR: "" };
const bundle = join(base, "handoff.ctxbundle");
let repoA: string;
let repoB: string;
let shortId: string;

function claudeFolderB(): string[] {
  const root = join(machineB.HOME, ".claude");
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .sort()
    .map((name) => `${name} ${statSync(join(root, name)).size}`);
}

beforeAll(() => {
  repoA = createGitCheckout(join(base, "a"), "app", "git@github.com:acme/app.git");
  repoB = createGitCheckout(join(base, "b", "work space"), "app-clone", "https://github.com/acme/app");
  const folder = join(machineA.HOME, ".claude", "projects", repoA.replaceAll("/", "-"));
  mkdirSync(join(folder, LONG_SESSION), { recursive: true });
  const move = (text: string, from: string) => text.replaceAll(`"cwd":"${from}`, `"cwd":"${repoA}`);
  writeFileSync(join(folder, `${LONG_SESSION}.jsonl`), move(readFileSync(FIXTURE.long, "utf8"), LONG_CWD));
  cpSync(FIXTURE.longSubagents, join(folder, LONG_SESSION, "subagents"), { recursive: true });
  const short = move(readFileSync(FIXTURE.short, "utf8"), SPOTTER_CWD);
  shortId = /"sessionId":"([^"]+)"/.exec(short)?.[1] as string;
  writeFileSync(join(folder, `${shortId}.jsonl`), short);
});

describe("ctx export / ctx import (built binary)", () => {
  it("moves two sessions to another machine's checkout and prints how to resume them", async () => {
    expect((await runCtx(["index", "--json"], { cwd: repoA, env: machineA })).code).toBe(0);
    for (const args of [
      ["session", "tag", LONG_SESSION, "auth", "handoff"],
      ["session", "star", LONG_SESSION],
      ["session", "note", LONG_SESSION, "the retry fix that worked"],
    ]) {
      const run = await runCtx(args, { cwd: repoA, env: machineA });
      expect(run.code, run.stderr).toBe(0);
    }
    const exported = await runCtx(["export", LONG_SESSION, shortId, "--out", bundle, "--json"], {
      cwd: repoA,
      env: machineA,
      timeoutMs: 60_000,
    });
    expect(exported.code, exported.stderr).toBe(0);
    const exportReport = ExportReportSchema.parse(JSON.parse(exported.stdout));
    expect(exportReport.sessions.map((s) => [s.sessionId, s.files])).toEqual([
      [LONG_SESSION, 3],
      [shortId, 1],
    ]);
    expect(statSync(bundle).mode & 0o777).toBe(0o600);

    const imported = await runCtx(["import", bundle], { cwd: repoB, env: machineB, timeoutMs: 60_000 });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout.trim().split("\n")).toEqual([
      `cd '${repoB}' && claude --resume ${LONG_SESSION}`,
      `cd '${repoB}' && claude --resume ${shortId}`,
    ]);
    expect(imported.stderr).toContain("REDACTED");
    const folderB = join(machineB.HOME, ".claude", "projects", repoB.replace(/[^A-Za-z0-9]/g, "-"));
    const text = readFileSync(join(folderB, `${LONG_SESSION}.jsonl`), "utf8");
    expect(text).not.toContain(`"cwd":"${repoA}`);
    expect(text).toContain(`"cwd":"${repoB}"`);
    expect(readdirSync(join(folderB, LONG_SESSION, "subagents")).sort()).toEqual([
      "agent-a2898e3.jsonl",
      "agent-acompact-e1f845.jsonl",
    ]);

    const again = await runCtx(["import", bundle, "--json"], { cwd: repoB, env: machineB });
    const importReport = ImportReportSchema.parse(JSON.parse(again.stdout));
    expect(importReport.sessions.map((s) => s.outcome)).toEqual(["unchanged", "unchanged"]);

    expect((await runCtx(["index", "--json"], { cwd: repoB, env: machineB })).code).toBe(0);
    const stats = JSON.parse((await runCtx(["stats", "--json"], { cwd: repoB, env: machineB })).stdout);
    expect(stats).toMatchObject({ sessions: 2, projects: 1 });
    // The person's tags, star and note came with the bundle into machine B's library, and its search filters on them.
    const found = await runCtx(["search", "retry fix", "--tag", "handoff", "--starred", "--json"], {
      cwd: repoB,
      env: machineB,
    });
    expect(found.code, found.stderr).toBe(0);
    const results = JSON.parse(found.stdout).results as Array<Record<string, unknown>>;
    expect(results.map((r) => [r.sessionId, r.starred, r.labels, r.note])).toEqual([
      [LONG_SESSION, true, ["auth", "handoff"], "the retry fix that worked"],
    ]);
  });

  it("refuses an unknown id and writes no file", async () => {
    const out = join(base, "never.ctxbundle");
    const run = await runCtx(["export", "00000000-0000-4000-8000-000000000000", "--out", out], {
      cwd: repoA,
      env: machineA,
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("ctx: session 00000000-0000-4000-8000-000000000000 is not in the session index");
    expect(existsSync(out)).toBe(false);
  });
});

describe("ctx import refuses a hostile bundle whole (built binary)", () => {
  const ID = "0b6f4a52-9d0e-4c52-a1c9-3f1f9a6f0c11";
  const sound = () => [
    {
      id: ID,
      remoteUrl: "github.com/acme/app",
      files: [{ name: `${ID}.jsonl`, text: transcriptIn(ID, "/home/al/app") }],
    },
  ];

  async function refused(path: string): Promise<string> {
    const before = claudeFolderB();
    const run = await runCtx(["import", path], { cwd: repoB, env: machineB });
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe("");
    expect(claudeFolderB()).toEqual(before);
    const [first] = run.stderr.split("\n");
    expect(run.stderr).toContain("nothing was imported");
    return first as string;
  }

  it("tampered (one byte changed)", async () => {
    const path = join(base, "tampered.ctxbundle");
    await writeTestBundle(path, sound());
    const bytes = readFileSync(path);
    bytes[bytes.length - 20] = (bytes[bytes.length - 20] as number) ^ 0x40;
    writeFileSync(path, bytes);
    expect(await refused(path)).toMatch(/^ctx: the bundle .* is refused: (checksum mismatch|zstd payload)/);
  });

  it("truncated", async () => {
    const path = join(base, "truncated.ctxbundle");
    await writeTestBundle(path, sound());
    writeFileSync(path, readFileSync(path).subarray(0, 60));
    expect(await refused(path)).toMatch(/is refused: truncated/);
  });

  it("oversized (a sparse 5 GiB file)", async () => {
    const path = join(base, "huge.ctxbundle");
    const handle = await open(path, "w");
    await handle.truncate(5 * 1024 ** 3);
    await handle.close();
    expect(await refused(path)).toMatch(/is refused: it is 5368709120 bytes, over the \d+ a bundle may be/);
  });

  it("a line nested 100,000 deep", async () => {
    const path = join(base, "deep.ctxbundle");
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}\n`;
    await writeTestBundle(path, [{ ...sound()[0], files: [{ name: `${ID}.jsonl`, text: deep }] } as never]);
    expect(await refused(path)).toMatch(/is refused: line 1 of .* nests more than 1000 deep/);
  });

  it("an entry pointing outside its folder", async () => {
    const path = join(base, "escape.ctxbundle");
    await writeTestBundle(path, [
      {
        ...sound()[0],
        files: [
          { name: `${ID}.jsonl`, text: transcriptIn(ID, "/home/al/app") },
          { name: `${ID}/subagents/../../../../../.bashrc`, text: "echo owned\n" },
        ],
      } as never,
    ]);
    expect(await refused(path)).toMatch(/is refused: entry .* leads outside its folder/);
  });
});
