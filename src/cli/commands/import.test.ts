// `ctx import` in-process: a bundle's hostile title (escape sequences, newlines, 1 MB) reaches the terminal as one
// sanitised line, stdout holds the resume command alone, and --json prints the report whole.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { transcriptIn, writeTestBundle } from "../../../tests/helpers/bundle-files.ts";
import { runCliCaptured } from "../../../tests/helpers/cli-run.ts";
import { createGitCheckout } from "../../../tests/helpers/team-checkout.ts";
import { ImportReportSchema } from "../../transplant/bundle-report.ts";

const ID = "0b6f4a52-9d0e-4c52-a1c9-3f1f9a6f0c11";

describe("ctx import", () => {
  it("prints the resume command on stdout and a hostile title as one clean line on stderr", async () => {
    const base = mkdtempSync(join(tmpdir(), "ctx-import-cli-"));
    const repo = createGitCheckout(base, "app", "https://github.com/acme/app");
    const bundle = join(base, "b.ctxbundle");
    const hostile = `fix\u001b]0;owned\u0007\nctx: fake line\u001b[2J${"x".repeat(1_000_000)}`;
    await writeTestBundle(
      bundle,
      [
        {
          id: ID,
          remoteUrl: "github.com/acme/app",
          files: [{ name: `${ID}.jsonl`, text: transcriptIn(ID, "/home/al/app") }],
        },
      ],
      (manifest) => {
        const [session] = manifest.sessions;
        if (session !== undefined) session.title = hostile.slice(0, 4_000);
        return manifest;
      },
    );
    const env = { HOME: join(base, "home"), CTX_HOME: join(base, "ctx"), CLAUDE_CONFIG_DIR: "" };
    const run = await runCliCaptured(["import", bundle], { cwd: repo, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`cd ${repo} && claude --resume ${ID}\n`);
    expect(run.stderr).not.toContain("\u001b");
    expect(run.stderr).not.toContain("\u0007");
    expect(run.stderr.split("\n").filter((line) => line.startsWith("ctx: fake line"))).toEqual([]);

    const json = await runCliCaptured(["import", bundle, "--json"], { cwd: repo, env });
    const report = ImportReportSchema.parse(JSON.parse(json.stdout));
    expect(report.sessions[0]).toMatchObject({ sessionId: ID, outcome: "unchanged", title: hostile.slice(0, 4_000) });
  });
});
