// `ctx forks` and the `forks` section of `ctx stats` in-process: JSON and text from an index of a fork made by Claude
// Code 2.1.330 and a fork log, a bad `--since` and an unknown `--project` refused with their hints.
import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCliCaptured } from "../../../tests/helpers/cli-run.ts";
import { rejectedCtxError } from "../../../tests/helpers/ctx-error.ts";
import { offerRecord } from "../../core/library/fork-offer.ts";
import type { ForksReport } from "../../search/fork-history-schema.ts";
import { resolveIndexPath } from "../../search/paths.ts";
import { syncIndex } from "../../search/sync/sync-index.ts";
import { appendForkLog } from "../../store/library/fork-log.ts";

const SOURCE = "d2e2675e-9085-415a-b095-cefa3b4cb8f2";
const FORK = "41bc45fa-0233-4d74-bf70-2109cda90960";
let root: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "ctx-forks-cli-"));
  env = { CTX_HOME: join(root, ".ctx"), HOME: root, NO_COLOR: "1" };
  const folder = join(root, "claude", "projects", "-home-user-work-project");
  mkdirSync(folder, { recursive: true });
  const fixtures = new URL("../../../tests/fixtures/forks/", import.meta.url);
  copyFileSync(new URL("source.jsonl", fixtures), join(folder, `${SOURCE}.jsonl`));
  copyFileSync(new URL("fork.jsonl", fixtures), join(folder, `${FORK}.jsonl`));
  await syncIndex({ claudeDir: join(root, "claude"), dbPath: resolveIndexPath(env) });
  const at = Date.parse("2026-12-02T04:12:00.000Z");
  await appendForkLog(env, offerRecord(at, "cli", "write notes", [{ sessionId: SOURCE, point: null }], null));
  await appendForkLog(env, { kind: "run", at: at + 1000, via: "picker", sessionId: SOURCE, point: null });
});

describe("ctx forks", () => {
  it("prints the fork with its source, its search and its outcome, as JSON and as text", async () => {
    const json = await runCliCaptured(["forks", "--json"], { cwd: root, env });
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as ForksReport;
    expect(report.forks.map((fork) => [fork.sessionId, fork.source, fork.ranBy, fork.outcome.verdict])).toEqual([
      [FORK, SOURCE, "picker", "paid-off"],
    ]);
    const text = await runCliCaptured(["forks"], { cwd: root, env });
    expect(text.stdout).toContain(`${FORK}  paid-off`);
    expect(text.stdout).toContain("run by the picker");
    expect(text.stdout).toMatch(/search success rate\s+100% \(1 of 1 searches followed by a fork\)/);
  });

  it("refuses a --since that is not a date and a --project it does not know", async () => {
    const since = await rejectedCtxError(runCliCaptured(["forks", "--since", "last tuesday"], { cwd: root, env }));
    expect(since.code).toBe("USAGE");
    expect(since.message).toBe('--since "last tuesday" is not a date');
    expect(since.hint).toContain("7d");
    const project = await rejectedCtxError(runCliCaptured(["forks", "--project", "nowhere"], { cwd: root, env }));
    expect(project.code).toBe("NOT_FOUND");
    expect(project.hint).toContain("-home-user-work-project");
    expect((await runCliCaptured(["forks", "--since", "1d", "--json"], { cwd: root, env })).code).toBe(0);
  });
});

describe("ctx stats", () => {
  it("has a forks section of its own", async () => {
    const json = await runCliCaptured(["stats", "--json"], { cwd: root, env });
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as { sessions: number; forks: ForksReport["stats"] };
    expect(report.sessions).toBe(2);
    expect(report.forks).toMatchObject({ searches: 1, successRate: 1, forks: 1, verdicts: { "paid-off": 1 } });
    const text = await runCliCaptured(["stats"], { cwd: root, env });
    expect(text.stdout).toContain("forks (ctx forks lists them)");
  });

  it("says why when the fork log cannot be read (a link)", async () => {
    const other = { ...env, CTX_HOME: join(root, "other-home") };
    mkdirSync(join(root, "other-home", "library"), { recursive: true, mode: 0o700 });
    writeFileSync(join(root, "elsewhere.jsonl"), "");
    symlinkSync(join(root, "elsewhere.jsonl"), join(root, "other-home", "library", "fork-log.jsonl"));
    const failure = await rejectedCtxError(runCliCaptured(["stats", "--json"], { cwd: root, env: other }));
    expect(failure.code).toBe("UNSAFE_PATH");
    expect(failure.message).toContain("symbolic link");
  });
});
