// exportSessions over a real session index of real transcripts (tests/fixtures/claude) in a git checkout: the bundle
// reads back whole with the index's metadata, the subagents' files and the annotations; a secret in a transcript
// does not reach it; an unknown id or a session outside git writes no file.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { FIXTURE, LONG_SESSION } from "../../tests/helpers/claude-projects.ts";
import { rejectedCtxError } from "../../tests/helpers/ctx-error.ts";
import { createGitCheckout, SPOTTER_CWD } from "../../tests/helpers/team-checkout.ts";
import { DEFAULT_BUNDLE_LIMITS } from "../core/transplant/bundle-manifest.ts";
import { syncIndex } from "../search/sync/sync-index.ts";
import { type ExportOptions, exportSessions } from "./bundle-export.ts";
import { readBundle } from "./bundle-read.ts";

const SECRET = "ghp_Zq8vW2mN4kL6pR0tY3uX5cB7dF9gH1jK2lM4";
const LONG_CWD = "/home/USER/projects/spotter-worktrees/spotter-dov";
let base: string;
let options: ExportOptions;
let shortId: string;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), "ctx-bundle-export-"));
  const repo = createGitCheckout(base, "app", "git@github.com:acme/app.git");
  const claudeDir = join(base, "claude");
  const folder = join(claudeDir, "projects", "-app");
  mkdirSync(join(folder, LONG_SESSION), { recursive: true });
  const move = (text: string, from: string) => text.replaceAll(`"cwd":"${from}`, `"cwd":"${repo}`);
  writeFileSync(join(folder, `${LONG_SESSION}.jsonl`), move(readFileSync(FIXTURE.long, "utf8"), LONG_CWD));
  cpSync(FIXTURE.longSubagents, join(folder, LONG_SESSION, "subagents"), { recursive: true });
  const short = move(readFileSync(FIXTURE.short, "utf8"), SPOTTER_CWD).replace(
    "</command-name>",
    `</command-name> token ${SECRET}`,
  );
  expect(short).toContain(SECRET);
  shortId = /"sessionId":"([^"]+)"/.exec(short)?.[1] as string;
  writeFileSync(join(folder, `${shortId}.jsonl`), short);
  const dbPath = join(base, "index.db");
  await syncIndex({ claudeDir, dbPath });
  options = {
    ids: [LONG_SESSION, shortId],
    out: join(base, "out.ctxbundle"),
    force: false,
    indexPath: dbPath,
    env: { HOME: join(base, "home"), CTX_HOME: join(base, "ctx"), CLAUDE_CONFIG_DIR: claudeDir },
    now: new Date("2026-12-01T12:00:00Z"),
    allowlist: [],
  };
});

describe("exportSessions", () => {
  it("writes a bundle that reads back whole: metadata, subagents, annotations, nothing secret", async () => {
    const report = await exportSessions({
      ...options,
      annotations: async (ids) =>
        new Map([[ids[1] as string, { starred: true, labels: ["auth"], note: `see ${SECRET}` }]]),
    });
    expect(report.sessions.map((s) => [s.sessionId, s.project, s.files, s.annotated])).toEqual([
      [LONG_SESSION, "github.com/acme/app", 3, false],
      [shortId, "github.com/acme/app", 1, true],
    ]);
    const texts = new Map<string, string[]>();
    let current: string[] = [];
    const read = await readBundle(options.out, DEFAULT_BUNDLE_LIMITS, {
      open: async (name) => {
        current = [];
        texts.set(name, current);
      },
      write: async (chunk) => void current.push(Buffer.from(chunk).toString("latin1")),
      close: async () => undefined,
    });
    const [long, short] = read.manifest.sessions;
    expect(long?.files.map((f) => f.path)).toEqual([
      `${LONG_SESSION}.jsonl`,
      `${LONG_SESSION}/subagents/agent-a2898e3.jsonl`,
      `${LONG_SESSION}/subagents/agent-acompact-e1f845.jsonl`,
    ]);
    expect(long).toMatchObject({
      project: { remoteUrl: "github.com/acme/app", repoPath: "" },
      branch: expect.any(String),
    });
    expect(long?.title).not.toBe("");
    expect(short?.annotations).toMatchObject({ starred: true, labels: ["auth"] });
    expect(short?.annotations?.note).not.toContain(SECRET);
    const shortText = (texts.get(`${shortId}.jsonl`) ?? []).join("");
    expect(shortText).toContain("command-name");
    expect(shortText).not.toContain(SECRET);
    expect(readFileSync(options.out).includes(SECRET)).toBe(false);
  });

  it("refuses an unknown id or one that is not a session id, writing no file", async () => {
    const out = join(base, "never.ctxbundle");
    const unknown = await rejectedCtxError(
      exportSessions({ ...options, out, ids: [shortId, "00000000-0000-4000-8000-000000000000"] }),
    );
    expect(unknown.code).toBe("NOT_FOUND");
    expect(unknown.message).toContain("00000000-0000-4000-8000-000000000000 is not in the session index");
    const bad = await rejectedCtxError(exportSessions({ ...options, out, ids: ["../etc"] }));
    expect(bad.code).toBe("USAGE");
    expect(existsSync(out)).toBe(false);
  });
});
