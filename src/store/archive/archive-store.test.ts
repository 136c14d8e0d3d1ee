import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { rejectedCtxError } from "../../../tests/helpers/ctx-error.ts";
import { readCleanupPeriod } from "../../config/claude-paths.ts";
import { defaultConfig } from "../../config/defaults.ts";
import { createLogger, silentLogger } from "../../log.ts";
import { encodeContainer } from "../files/container.ts";
import { pruneArchive, readLastPass, runArchivePass } from "./archive-pass.ts";
import { restoreArchived } from "./archive-restore.ts";
import { archivePassDue } from "./archive-schedule.ts";
import { archiveDir, listArchived, setArchivePinned } from "./archive-store.ts";

const DAY = 86_400_000;
let base: string;
let env: NodeJS.ProcessEnv;
let claudeDir: string;
const project = "-work-repo";

function writeSession(id: string, ageDays: number, lines = 3): { transcript: string; subagent: string } {
  const folder = join(claudeDir, "projects", project);
  mkdirSync(join(folder, id, "subagents"), { recursive: true });
  const transcript = join(folder, `${id}.jsonl`);
  const body = Array.from({ length: lines }, (_, i) =>
    JSON.stringify({
      type: "user",
      cwd: "/work/repo",
      sessionId: id,
      uuid: `u${i}`,
      message: { role: "user", content: `line ${i} é ✓` },
    }),
  ).join("\n");
  writeFileSync(transcript, `${body}\n`);
  const subagent = join(folder, id, "subagents", "agent-a1.jsonl");
  writeFileSync(subagent, '{"type":"assistant","isSidechain":true}\n');
  const when = new Date(Date.now() - ageDays * DAY);
  utimesSync(transcript, when, when);
  return { transcript, subagent };
}

const pass = () => runArchivePass({ env, config: defaultConfig(), now: () => new Date(), logger: silentLogger });

function withArchive(settings: Partial<ReturnType<typeof defaultConfig>["archive"]>) {
  const config = defaultConfig();
  return { ...config, archive: { ...config.archive, ...settings } };
}

/** A transcript of `bytes` bytes that compress poorly, aged `ageDays`. */
function writeBigTranscript(id: string, bytes: number, ageDays: number): string {
  const folder = join(claudeDir, "projects", project);
  mkdirSync(folder, { recursive: true });
  const path = join(folder, `${id}.jsonl`);
  const line = (i: number) => `${JSON.stringify({ type: "user", cwd: "/work/repo", n: i, r: Math.random() })}\n`;
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const next = line(i);
    parts.push(next);
    size += next.length;
  }
  writeFileSync(path, parts.join("").slice(0, bytes));
  const when = new Date(Date.now() - ageDays * DAY);
  utimesSync(path, when, when);
  return path;
}

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "ctx-archive-"));
  claudeDir = join(base, "claude");
  env = { CTX_HOME: join(base, "ctx-home"), CLAUDE_CONFIG_DIR: claudeDir, HOME: join(base, "home") };
});

describe("the transcript archive", () => {
  it("archives a transcript aged within 7 days of cleanup with its subagents, and restores it byte for byte", async () => {
    const old = writeSession("aaaa-1111", 25);
    writeSession("bbbb-2222", 3);
    const originals = [readFileSync(old.transcript), readFileSync(old.subagent)];
    const report = await pass();
    expect(report).toMatchObject({ cleanupPeriodDays: 30, cleanupPeriodSource: "default", scanned: 2, failed: [] });
    expect(report.archived).toEqual([expect.objectContaining({ sessionId: "aaaa-1111", files: 2 })]);
    const [meta] = await listArchived(env);
    expect(meta).toMatchObject({ sessionId: "aaaa-1111", project, transcriptPath: old.transcript, cwd: "/work/repo" });
    expect(statSync(join(archiveDir(env), "aaaa-1111.ctx")).mode & 0o777).toBe(0o600);
    expect(
      readFileSync(join(archiveDir(env), "aaaa-1111.ctx"))
        .subarray(0, 4)
        .toString(),
    ).not.toBe("");
    // Nothing new: a second pass archives nothing.
    expect((await pass()).archived).toEqual([]);

    rmSync(join(claudeDir, "projects", project, "aaaa-1111"), { recursive: true });
    rmSync(old.transcript);
    const restored = await restoreArchived(env, "aaaa-1111", { now: new Date() });
    expect(restored.restored).toEqual([old.transcript, old.subagent]);
    expect([readFileSync(old.transcript), readFileSync(old.subagent)]).toEqual(originals);
    // Dated now, so Claude Code's next cleanup does not take it again at once.
    expect(Date.now() - statSync(old.transcript).mtimeMs).toBeLessThan(60_000);
    expect((await restoreArchived(env, "aaaa-1111", { now: new Date() })).unchanged).toHaveLength(2);
  });

  it("refuses a damaged archive whole and never overwrites a different file without --force", async () => {
    const old = writeSession("cccc-3333", 29);
    await pass();
    writeFileSync(old.transcript, "newer content\n");
    const conflict = await rejectedCtxError(restoreArchived(env, "cccc-3333", { now: new Date() }));
    expect(conflict.code).toBe("CONFLICT");
    expect(readFileSync(old.transcript, "utf8")).toBe("newer content\n");
    expect((await restoreArchived(env, "cccc-3333", { force: true, now: new Date() })).restored).toHaveLength(1);

    rmSync(old.transcript);
    rmSync(old.subagent);
    const container = join(archiveDir(env), "cccc-3333.ctx");
    const bytes = readFileSync(container);
    bytes[bytes.length - 10] = (bytes[bytes.length - 10] ?? 0) ^ 0xff;
    writeFileSync(container, bytes);
    const damaged = await rejectedCtxError(restoreArchived(env, "cccc-3333", { now: new Date() }));
    expect(damaged.code).toBe("STATE_CORRUPT");
    expect(damaged.message).toContain("the archive of session cccc-3333 is damaged");
    expect(existsSync(old.transcript)).toBe(false);
    expect(existsSync(old.subagent)).toBe(false);
    expect((await rejectedCtxError(restoreArchived(env, "nope", { now: new Date() }))).code).toBe("NOT_FOUND");
    expect((await rejectedCtxError(restoreArchived(env, "../x", { now: new Date() }))).code).toBe("USAGE");
  });

  it("prunes oldest first past the size cap and keeps pinned sessions", async () => {
    writeSession("dddd-0001", 26, 2_000);
    await pass();
    writeSession("dddd-0002", 26, 2_000);
    await pass();
    await setArchivePinned(env, "dddd-0001", true);
    expect((await pruneArchive(env, { maxMegabytes: 0, maxAgeDays: 0, now: new Date() })).pruned).toEqual([]);
    // A cap of one byte: everything unpinned goes, oldest first.
    const metas = await listArchived(env);
    expect(metas).toHaveLength(2);
    const { pruned } = await pruneArchive(env, { maxMegabytes: 1 / 1024 / 1024, maxAgeDays: 0, now: new Date() });
    expect(pruned).toEqual(["dddd-0002"]);
    expect((await listArchived(env)).map((m) => m.sessionId)).toEqual(["dddd-0001"]);
  });

  it("reads cleanupPeriodDays as Claude Code does: local over project over user settings", async () => {
    const root = join(base, "repo");
    mkdirSync(join(root, ".claude"), { recursive: true });
    mkdirSync(claudeDir, { recursive: true });
    expect(readCleanupPeriod(env, root)).toEqual({ days: 30, source: "default" });
    writeFileSync(join(claudeDir, "settings.json"), JSON.stringify({ cleanupPeriodDays: 90 }));
    expect(readCleanupPeriod(env, root).days).toBe(90);
    writeFileSync(join(root, ".claude", "settings.json"), JSON.stringify({ cleanupPeriodDays: 14 }));
    expect(readCleanupPeriod(env, root).days).toBe(14);
    writeFileSync(join(root, ".claude", "settings.local.json"), "{ not json");
    expect(readCleanupPeriod(env, root)).toEqual({ days: 14, source: join(root, ".claude", "settings.json") });
    writeFileSync(join(root, ".claude", "settings.local.json"), JSON.stringify({ cleanupPeriodDays: 10 }));
    expect(readCleanupPeriod(env, root).days).toBe(10);

    // With a 10-day period a 4-day-old transcript is within 7 days of deletion.
    writeSession("eeee-0001", 4);
    const report = await runArchivePass({
      env,
      config: defaultConfig(),
      projectRoot: root,
      now: () => new Date(),
      logger: silentLogger,
    });
    expect(report.archived.map((a) => a.sessionId)).toEqual(["eeee-0001"]);
    expect(await archivePassDue(env, new Date(), 3_600_000)).toBe(false);
    expect(await archivePassDue(env, new Date(Date.now() + 3_600_001), 3_600_000)).toBe(true);
  });

  it("break 7: streams a transcript larger than every buffer through archive, verify and restore, byte for byte", async () => {
    const path = writeBigTranscript("ffff-0001", 1_300_000, 25);
    const original = readFileSync(path);
    const report = await pass();
    expect(report.archived.map((a) => a.sessionId)).toEqual(["ffff-0001"]);
    rmSync(path);
    expect((await restoreArchived(env, "ffff-0001", { now: new Date() })).restored).toEqual([path]);
    expect(readFileSync(path).equals(original)).toBe(true);
    // No temp file left beside it.
    expect(existsSync(`${path}.ctx-restore-${process.pid}.tmp`)).toBe(false);
  });

  it("break 7: restores an archive written before streaming ({ meta, files } in one buffer)", async () => {
    const folder = join(claudeDir, "projects", project);
    const transcript = join(folder, "gggg-0001.jsonl");
    const data = Buffer.from('{"type":"user","cwd":"/work/old"}\n'.repeat(500));
    const meta = {
      version: 1,
      sessionId: "gggg-0001",
      project,
      transcriptPath: transcript,
      claudeDir,
      cwd: "/work/old",
      archivedAt: new Date().toISOString(),
      files: [
        {
          path: `projects/${project}/gggg-0001.jsonl`,
          bytes: data.length,
          sha256: createHash("sha256").update(data).digest("hex"),
          mtimeMs: Date.now(),
        },
      ],
      bytes: 0,
    };
    mkdirSync(archiveDir(env), { recursive: true });
    writeFileSync(
      join(archiveDir(env), "gggg-0001.ctx"),
      encodeContainer({ meta, files: [{ path: meta.files[0]?.path, data }] }, "zstd"),
    );
    writeFileSync(join(archiveDir(env), "gggg-0001.meta.json"), JSON.stringify(meta));
    expect((await restoreArchived(env, "gggg-0001", { now: new Date() })).restored).toEqual([transcript]);
    expect(readFileSync(transcript).equals(data)).toBe(true);
  });

  it("break 7: skips a transcript over archive.maxTranscriptMegabytes with a logged line, and counts it", async () => {
    const big = writeBigTranscript("hhhh-0001", 1024 * 1024 + 1, 25);
    writeSession("hhhh-0002", 25);
    const lines: string[] = [];
    const logger = createLogger({ level: "info", write: (line) => lines.push(line) });
    const report = await runArchivePass({
      env,
      config: withArchive({ maxTranscriptMegabytes: 1 }),
      now: () => new Date(),
      logger,
    });
    expect(report.archived.map((a) => a.sessionId)).toEqual(["hhhh-0002"]);
    expect(report.skipped).toEqual([{ sessionId: "hhhh-0001", project, path: big, bytes: 1024 * 1024 + 1 }]);
    expect(lines).toEqual([expect.stringMatching(/^ctx warn: archive: skipped .*hhhh-0001\.jsonl \(1(\.0)? MiB\)/)]);
    expect(existsSync(join(archiveDir(env), "hhhh-0001.ctx"))).toBe(false);
    // What a detached pass did stays readable for `ctx archive`.
    expect((await readLastPass(env))?.skipped.map((s) => s.sessionId)).toEqual(["hhhh-0001"]);
    // 0: no limit.
    const unlimited = await runArchivePass({
      env,
      config: withArchive({ maxTranscriptMegabytes: 0 }),
      now: () => new Date(),
      logger,
    });
    expect(unlimited.archived.map((a) => a.sessionId)).toEqual(["hhhh-0001"]);
  });

  it("break 7: prunes copies past archive.maxAgeDays (by the transcript's last write) unless pinned", async () => {
    writeSession("iiii-0001", 26);
    writeSession("iiii-0002", 26);
    writeSession("iiii-0003", 26);
    await pass();
    expect((await listArchived(env)).map((m) => m.sessionId).sort()).toEqual(["iiii-0001", "iiii-0002", "iiii-0003"]);
    await setArchivePinned(env, "iiii-0001", true);
    const kept = await runArchivePass({
      env,
      config: withArchive({ maxAgeDays: 0 }),
      now: () => new Date(),
      logger: silentLogger,
    });
    expect(kept.pruned).toEqual([]);
    // Twenty days on: the last writes are 46 days old, past a 40-day limit.
    const later = new Date(Date.now() + 20 * DAY);
    const report = await runArchivePass({
      env,
      config: withArchive({ maxAgeDays: 40 }),
      now: () => later,
      logger: silentLogger,
    });
    expect(report.expired.sort()).toEqual(["iiii-0002", "iiii-0003"]);
    expect(report.pruned.sort()).toEqual(["iiii-0002", "iiii-0003"]);
    expect(report.archived).toEqual([]);
    expect((await listArchived(env)).map((m) => m.sessionId)).toEqual(["iiii-0001"]);
    expect(existsSync(join(archiveDir(env), "iiii-0002.ctx"))).toBe(false);
  });
});
