// Hostile transcripts (issue #21): what a transcript holds must not turn into stored secrets. Each probe writes a
// transcript into a world's Claude projects folder, runs the built ctx on it, and reads back what ctx persisted.
import { execFileSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { inflateRawSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { ContextStateSchema } from "../../src/core/context/extract.ts";
import { listSnapshots, readSnapshot } from "../../src/store/snapshots/snapshots.ts";
import {
  assistantText,
  assistantToolUse,
  type LineContext,
  toolResult,
  userPrompt,
} from "../helpers/transcript-lines.ts";
import { listTree, makeWorld, runCtxIn, treeChanges, type World } from "./harness.ts";

let world: World | undefined;
afterEach(() => world?.cleanup());

const stripMarkers = (pem: string): string =>
  pem
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("-----"))
    .join("\n");

/** Every 8-character piece of each secret (line breaks removed): none may be found in what ctx stored. */
function pieces(secrets: readonly string[]): string[] {
  return secrets.flatMap((secret) => {
    const flat = secret.replaceAll("\n", "");
    return Array.from({ length: Math.floor(flat.length / 8) }, (_, i) => flat.slice(i * 8, i * 8 + 8));
  });
}

/** Every file under `dir` as Latin-1 text (sqlite pages, WAL frames), plus every deflated chunk text inflated. */
function storedText(dir: string): string {
  const parts: string[] = [];
  const walk = (path: string): void => {
    if (statSync(path).isDirectory()) for (const entry of readdirSync(path)) walk(join(path, entry));
    else parts.push(readFileSync(path).toString("latin1"));
  };
  walk(dir);
  const db = new DatabaseSync(join(dir, "index.db"), { readOnly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    for (const { name } of tables) {
      for (const row of db.prepare(`SELECT * FROM "${name}"`).all()) {
        for (const value of Object.values(row)) {
          if (typeof value === "string") parts.push(value);
          else if (value instanceof Uint8Array && value[0] === 1) {
            try {
              parts.push(inflateRawSync(value.subarray(1)).toString("utf8"));
            } catch {
              // not a deflated chunk text
            }
          }
        }
      }
    }
  } finally {
    db.close();
  }
  return parts.join("\n");
}

describe("hostile transcripts", () => {
  it("break 8: a PEM body without its BEGIN/END lines and a GCP private_key_id are redacted before anything is persisted", async () => {
    world = makeWorld("current", "pem-body");
    const { repo, claudeDir, ctxHome } = world;
    mkdirSync(join(repo, ".git"));
    const session = "8b2c4d6e-0000-4000-8000-0000000000b8";
    const projectDir = join(claudeDir, "projects", repo.replace(/[^A-Za-z0-9]/g, "-"));
    mkdirSync(projectDir, { recursive: true });
    const transcript = join(projectDir, `${session}.jsonl`);

    const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    const serviceAccountKey = stripMarkers(rsa.export({ type: "pkcs8", format: "pem" }).toString());
    const keyId = "5e0f2a7c9d1b3e5f7a9c1d3e5f7b9d1f3a5c7e9b";
    const pasted = stripMarkers(
      generateKeyPairSync("rsa", { modulusLength: 2048 })
        .privateKey.export({ type: "pkcs1", format: "pem" })
        .toString(),
    );
    const serviceAccount = JSON.stringify(
      {
        type: "service_account",
        project_id: "ctx-fake-project",
        private_key_id: keyId,
        private_key: `${serviceAccountKey}\n`,
        client_email: "deployer@ctx-fake-project.iam.gserviceaccount.com",
      },
      null,
      2,
    );
    const ctx: LineContext = { sessionId: session, cwd: repo };
    writeFileSync(
      transcript,
      `${[
        userPrompt(ctx, "Why does the quokkaflight deploy reject the service account in service-account.json?"),
        assistantToolUse(ctx, "toolu_read", "Read", { file_path: join(repo, "service-account.json") }),
        toolResult(ctx, "toolu_read", serviceAccount),
        userPrompt(
          ctx,
          `The quokkaflight vault also has this key, without its header lines:\n${pasted}\nIs it the same?`,
        ),
      ].join("\n")}\n`,
    );
    const secrets = pieces([serviceAccountKey, pasted, keyId]);
    const outside = listTree(world.base, ["home/.ctx", "repo/.ctx"]);

    const index = await runCtxIn(world, ["index", "--claude-dir", claudeDir, "--json"]);
    expect(index.code, index.stderr).toBe(0);
    expect(JSON.parse(index.stdout)).toMatchObject({ filesIngested: 1 });
    const search = await runCtxIn(world, [
      "search",
      "quokkaflight vault key",
      "--json",
      "--no-refresh",
      "--claude-dir",
      claudeDir,
    ]);
    expect(search.code, search.stderr).toBe(0);
    expect(search.stdout).toContain("quokkaflight"); // the session is found: its previews are what a reader sees
    expect(secrets.filter((piece) => search.stdout.includes(piece))).toEqual([]);
    const stored = storedText(ctxHome);
    expect(stored).toContain("quokkaflight"); // the reader sees the session's text
    expect(secrets.filter((piece) => stored.includes(piece))).toEqual([]);
    expect(stored).toContain("[REDACTED:private-key]");

    const hookInput = JSON.stringify({
      session_id: session,
      transcript_path: transcript,
      cwd: repo,
      hook_event_name: "PreCompact",
      trigger: "auto",
      custom_instructions: "",
    });
    const pre = await runCtxIn(world, ["hook", "pre-compact"], { stdin: hookInput, env: { CLAUDE_PROJECT_DIR: "" } });
    expect(pre, pre.stderr).toMatchObject({ code: 0, stdout: "" });
    const snapshots = await listSnapshots(repo);
    expect(snapshots).toHaveLength(1);
    const snapshot = await readSnapshot(repo, snapshots[0]?.id ?? "", ContextStateSchema);
    const copy = Buffer.from(snapshot?.transcript ?? new Uint8Array()).toString("utf8");
    expect(copy).toContain("quokkaflight vault");
    expect(copy).toContain("[REDACTED:private-key]");
    expect(copy).toContain('\\"private_key_id\\": \\"[REDACTED:secret]\\"');
    expect(secrets.filter((piece) => copy.includes(piece) || JSON.stringify(snapshot).includes(piece))).toEqual([]);

    expect(treeChanges(outside, listTree(world.base, ["home/.ctx", "repo/.ctx"]))).toEqual([]);
  });

  it("FIFOs and links to them named as transcripts are never opened: ctx index finishes, indexes the rest, leaves them", async () => {
    world = makeWorld("current", "fifo-transcripts");
    const { repo, claudeDir } = world;
    const projectDir = join(claudeDir, "projects", repo.replace(/[^A-Za-z0-9]/g, "-"));
    const real = "9c3d5e7f-0000-4000-8000-0000000000c9";
    const fifo = "9c3d5e7f-0000-4000-8000-0000000000ca";
    mkdirSync(join(projectDir, real, "subagents"), { recursive: true });
    const ctx: LineContext = { sessionId: real, cwd: repo };
    writeFileSync(
      join(projectDir, `${real}.jsonl`),
      `${[userPrompt(ctx, "Why does the wombatgrid cache miss?"), assistantText(ctx, "msg_wombat", "Its key omits the tenant.")].join("\n")}\n`,
    );
    // A read of any of these would wait for a writer forever: the run would hang, not fail.
    execFileSync("mkfifo", [join(projectDir, `${fifo}.jsonl`)]);
    execFileSync("mkfifo", [join(projectDir, real, "subagents", "agent-a1.jsonl")]);
    symlinkSync(join(projectDir, `${fifo}.jsonl`), join(projectDir, "9c3d5e7f-0000-4000-8000-0000000000cb.jsonl"));
    const outside = listTree(world.base, ["home/.ctx", "repo/.ctx"]);

    const index = await runCtxIn(world, ["index", "--json"], { timeoutMs: 30_000 });
    expect(index.code, index.stderr).toBe(0);
    expect(JSON.parse(index.stdout)).toMatchObject({ filesIngested: 1, sessionsTotal: 1 });
    const search = await runCtxIn(world, ["search", "wombatgrid", "--no-refresh", "--json"], { timeoutMs: 30_000 });
    expect(search.code, search.stderr).toBe(0);
    expect(JSON.parse(search.stdout).results.map((result: { sessionId: string }) => result.sessionId)).toEqual([real]);
    expect(lstatSync(join(projectDir, `${fifo}.jsonl`)).isFIFO()).toBe(true);
    expect(treeChanges(outside, listTree(world.base, ["home/.ctx", "repo/.ctx"]))).toEqual([]);
  });
});
