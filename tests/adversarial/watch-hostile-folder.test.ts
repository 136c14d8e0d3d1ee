// A project folder's name comes from a working folder anyone can name (Claude Code makes `-home-me-<repo>` from the
// cwd): `ctx serve`'s watcher says which folder it cannot watch on stderr, and that line goes through the one log
// sanitiser (src/log.ts → terminal-text.ts), never an escape sequence or a second line of the folder's choosing.
import { mkdirSync, mkdtempSync, rmSync, watch } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.ts";
import { type IndexWatcher, startIndexWatcher } from "../../src/search/sync/watcher.ts";

let watcher: IndexWatcher | undefined;
let dir: string | undefined;

afterEach(async () => {
  await watcher?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe("a hostile project folder name in the watcher's warning", () => {
  it("break: the folder that cannot be watched is named on one line with no escape sequence", async () => {
    dir = mkdtempSync(join(tmpdir(), "ctx-adv-watch-"));
    const hostile = join(dir, "projects", "-home-me-\u001b]0;pwned\u0007\n\u001b[31mctx error: all lost");
    mkdirSync(hostile, { recursive: true });
    const lines: string[] = [];
    watcher = startIndexWatcher({
      claudeDir: dir,
      quietMs: 60_000,
      syncOnStart: false,
      commands: [],
      logger: createLogger({ level: "warn", write: (line) => lines.push(line) }),
      fallbackSyncMs: 60_000,
      watchFolder: (path, listener) => {
        if (path === hostile) throw Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
        return watch(path, listener);
      },
    });
    await watcher.ready;
    expect(lines).toHaveLength(1);
    const [line = ""] = lines;
    expect(line).toContain("cannot watch");
    expect(line).toContain("EACCES");
    const controls = [...line].filter((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
    expect(controls).toEqual([]);
    expect(line).toContain("pwned");
    expect(line.split("\n")).toHaveLength(1);
  });
});
