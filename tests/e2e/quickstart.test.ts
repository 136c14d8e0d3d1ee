// The README's first command, past its setup step (`--no-setup`: the build `pnpm test` just made): it shows the
// compaction step (saved and verified, the re-injected excerpt) and then the search, with nothing else on stderr.
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { assertBuilt } from "./ctx-process.ts";

const REPO = fileURLToPath(new URL("../..", import.meta.url));

describe("scripts/quickstart.sh", () => {
  it("shows PreCompact saving and verifying, what SessionStart(compact) re-injects, then the search", () => {
    assertBuilt();
    const base = mkdtempSync(join(tmpdir(), "ctx-quickstart-"));
    const run = spawnSync("bash", [join(REPO, "scripts", "quickstart.sh"), "--no-setup"], {
      cwd: base,
      encoding: "utf8",
      timeout: 60_000,
      env: {
        PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
        HOME: join(base, "home"),
        TMPDIR: base,
        TZ: "UTC",
      },
    });
    expect(run.status, run.stderr).toBe(0);
    const out = run.stdout;
    const order = [
      "== 1. ctx init",
      "created    .mcp.json",
      /pre-compact: snapshot \S+ saved and verified/,
      "holds       conversation",
      "-- SessionStart(compact)",
      '   | - last request from the user: "create the beads"',
      /ending with \[ctx-restore:\S+\]/,
      "7 sessions, 38 chunks indexed",
      "1. start phoenix in background",
      "fork: cd /home/marco/projects/spotter && claude --resume d6e0bada-1959-4eec-a9d2-0bfade768d8f --fork-session",
    ];
    let from = 0;
    for (const step of order) {
      const at = typeof step === "string" ? out.indexOf(step, from) : out.slice(from).search(step) + from;
      expect(at, `"${String(step)}" after offset ${from} in:\n${out}`).toBeGreaterThanOrEqual(from);
      from = at;
    }
    expect(out).not.toContain("4. ");
    // No `ctx` on this PATH: the quick start names the launcher that puts one there (#24).
    expect(out).toContain("`ctx` is not on PATH. `bash scripts/install-launcher.sh` puts it there");
    // The one stderr line allowed is init's note about absolute paths (a checkout is not on PATH).
    const stderr = run.stderr.split("\n").filter((line) => line !== "" && !line.includes("absolute paths"));
    expect(stderr).toEqual([]);
  });
});
