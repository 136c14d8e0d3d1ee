// `ctx search` with time words and exclusions, through the built binary: sessions whose transcripts carry controlled
// timestamps (last week, two months ago, yesterday, relative to the real clock), the child's TZ pinned to UTC.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { timedExchange } from "../helpers/transcript-lines.ts";
import { runCtx } from "./ctx-process.ts";

const DAY = 86_400_000;
const root = mkdtempSync(join(tmpdir(), "ctx-search-words-e2e-"));
const claudeDir = join(root, "claude");
const project = join(claudeDir, "projects", "-home-user-app");
mkdirSync(project, { recursive: true });
const env = { HOME: join(root, "home"), CTX_HOME: join(root, "ctx-home"), CLAUDE_CONFIG_DIR: claudeDir, TZ: "UTC" };

// Monday 00:00 UTC of this week, and of last week (ISO weeks: Monday first).
const today = new Date(new Date().toISOString().slice(0, 10)).getTime();
const thisMonday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY;
const lastMonday = thisMonday - 7 * DAY;

function write(id: string, at: number, prompt: string, reply: string): void {
  writeFileSync(
    join(project, `${id}.jsonl`),
    timedExchange({ sessionId: id, cwd: "/home/user/app" }, new Date(at), prompt, reply),
  );
}

write(
  "docker-last-week",
  lastMonday + 2 * DAY + 12 * 3_600_000,
  "docker build cache misses",
  "Docker layer order fixed.",
);
write(
  "docker-k8s-last-week",
  lastMonday + 3 * DAY + 9 * 3_600_000,
  "docker images for kubernetes",
  "Kubernetes pulls the docker image.",
);
write("docker-old", today - 60 * DAY, "docker build cache docker layers", "Docker again: the build cache.");
write("redis-yesterday", today - DAY + 12 * 3_600_000, "redis eviction policy", "allkeys-lru.");

const day = (ms: number) => {
  const d = new Date(ms);
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  return `${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
};

describe("ctx search with time words and exclusions (built binary)", () => {
  it('"last week docker" --json: only last week\'s sessions, and what was understood', async () => {
    const run = await runCtx(["search", "last week docker", "--json"], { cwd: root, env });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as {
      results: { sessionId: string }[];
      understood: { searched: string; period: { from: string; to: string; words: string[] }; lines: string[] };
    };
    expect(new Set(report.results.map((r) => r.sessionId))).toEqual(
      new Set(["docker-last-week", "docker-k8s-last-week"]),
    );
    expect(report.understood.searched).toBe("docker");
    expect(report.understood.period).toMatchObject({
      from: new Date(lastMonday).toISOString(),
      to: new Date(thisMonday).toISOString(),
      words: ["last week"],
    });
    expect(report.understood.lines[0]).toMatch(/^Searched sessions from .* \(last week\)\.$/);
    // Without time words: every docker session, and no understood field.
    const plain = JSON.parse((await runCtx(["search", "docker", "--json"], { cwd: root, env })).stdout) as object;
    expect(plain).not.toHaveProperty("understood");
    expect((plain as { results: unknown[] }).results).toHaveLength(3);
  });

  it("text: says what it searched and left out; an exclusion's hostile text stays on one line", async () => {
    // Unquoted, `-kubernetes` is the query's word, as in quotes; an unknown `--option` is still refused.
    const run = await runCtx(["search", "docker", "last", "week", "-kubernetes"], { cwd: root, env });
    expect(run.code, run.stderr).toBe(0);
    const [first, second] = run.stdout.split("\n");
    expect(first).toMatch(new RegExp(`^Searched sessions from ${new Date(lastMonday).getUTCDate()}\\D`));
    expect(first).toContain("(last week).");
    expect(first).toContain(day(thisMonday - DAY));
    expect(second).toBe('Left out sessions about "kubernetes".');
    expect(run.stdout).toContain("docker-last-week");
    expect(run.stdout).not.toContain("docker-k8s-last-week");
    const typo = await runCtx(["search", "docker", "--limt", "3"], { cwd: root, env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("unknown option '--limt'");
    const hostile = await runCtx(["search", 'docker -"evil\u001b[31m\nfork: rm -rf"'], { cwd: root, env });
    expect(hostile.stdout).not.toContain("\u001b[");
    expect(hostile.stdout).not.toMatch(/^fork: rm -rf/m);
  });

  it('"what did I do yesterday": yesterday\'s sessions, newest first, exit 0', async () => {
    const run = await runCtx(["search", "what did I do yesterday"], { cwd: root, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Sessions on ${day(today - DAY)}, most recent first:`);
    expect(run.stdout).toContain("1. redis eviction policy");
    const json = JSON.parse((await runCtx(["search", "yesterday", "--json"], { cwd: root, env })).stdout) as {
      results: unknown[];
      recent: { sessionId: string }[];
      understood: { listing: boolean };
    };
    expect(json.results).toEqual([]);
    expect(json.recent.map((s) => s.sessionId)).toEqual(["redis-yesterday"]);
    expect(json.understood.listing).toBe(true);
  });
});
