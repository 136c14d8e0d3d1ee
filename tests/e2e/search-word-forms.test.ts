// `ctx search` through the built binary reads a word's two ways of writing as one (src/core/search/word-forms.ts):
// a British spelling as the American one, and a contraction typed without its apostrophe as with it, whichever side
// of the match (the query or the transcript) wrote which.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { timedExchange } from "../helpers/transcript-lines.ts";
import { runCtx } from "./ctx-process.ts";

const root = mkdtempSync(join(tmpdir(), "ctx-search-word-forms-e2e-"));
const claudeDir = join(root, "claude");
const project = join(claudeDir, "projects", "-home-user-app");
mkdirSync(project, { recursive: true });
const env = { HOME: join(root, "home"), CTX_HOME: join(root, "ctx-home"), CLAUDE_CONFIG_DIR: claudeDir };

function write(id: string, prompt: string, reply: string): void {
  writeFileSync(
    join(project, `${id}.jsonl`),
    timedExchange({ sessionId: id, cwd: "/home/user/app" }, new Date("2026-11-02T10:00:00Z"), prompt, reply),
  );
}

write("picker", "the color picker doesn't open when I click the swatch", "The swatch's click handler was detached.");
write("theme", "initialise the grey theme from my favourite settings", "The theme now reads the saved settings.");
write("deploy", "deploy the app to staging", "Deployed to staging with the new settings.");

interface Report {
  results: { sessionId: string; score: number }[];
}

async function search(query: string): Promise<Report["results"]> {
  const run = await runCtx(["search", query, "--json", "--limit", "3"], { cwd: root, env });
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as Report).results.map(({ sessionId, score }) => ({ sessionId, score }));
}

describe("ctx search reads a word's two ways of writing as one (built binary)", () => {
  it("a British query finds the American transcript as the American query does, and the reverse", async () => {
    const american = await search("color picker doesn't open");
    expect(american[0]?.sessionId).toBe("picker");
    expect(await search("colour picker doesnt open")).toEqual(american);

    const british = await search("initialise the grey theme from favourite settings");
    expect(british[0]?.sessionId).toBe("theme");
    expect(await search("initialize the gray theme from favorite settings")).toEqual(british);
  });
});
