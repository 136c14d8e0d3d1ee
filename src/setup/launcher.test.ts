// The launcher (src/setup/launcher.ts): its words shell-quoted, so a clone or a Node in a folder with spaces or a quote
// still runs; only a launcher written earlier is replaced; the line that puts its folder on PATH.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rejectedCtxError } from "../../tests/helpers/ctx-error.ts";
import { installLauncher } from "./launcher.ts";

describe("installLauncher", () => {
  it("writes an executable launcher whose words survive spaces and quotes, and replaces only its own", async () => {
    const base = mkdtempSync(join(tmpdir(), "ctx-launcher-unit-"));
    const dir = join(base, "it's bin");
    mkdirSync(dir);
    // /bin/echo stands in for Node: the launcher passes it the entry and the arguments, word for word.
    const entry = join(base, "a clone's dist", "ctx.js");
    const first = await installLauncher({ dir, nodeBin: "/bin/echo", entry, pathVariable: "/usr/bin" });
    expect(first).toMatchObject({ path: join(dir, "ctx"), onPath: false });
    expect(first.pathLine).toBe(`export PATH='${base}/it'\\''s bin':"$PATH"`);
    expect(statSync(first.path).mode & 0o777).toBe(0o755);
    expect(execFileSync(first.path, ["--version", "two words"]).toString()).toBe(`${entry} --version two words\n`);
    const again = await installLauncher({ dir, nodeBin: "/bin/echo", entry, pathVariable: `/usr/bin:${dir}` });
    expect(again.onPath).toBe(true);

    writeFileSync(first.path, "#!/bin/sh\necho another ctx\n");
    const error = await rejectedCtxError(installLauncher({ dir, nodeBin: "/bin/echo", entry, pathVariable: "" }));
    expect(error.code).toBe("CONFLICT");
    expect(readFileSync(first.path, "utf8")).toBe("#!/bin/sh\necho another ctx\n");
  });

  it("keeps a clone path holding a newline, quotes and $(…) in its comment as text: nothing in it runs", async () => {
    const base = mkdtempSync(join(tmpdir(), "ctx-launcher-unit-"));
    const dir = join(base, "bin");
    mkdirSync(dir);
    // Run from `base`, the injected commands would leave `injected` there: before the fix the newline ended the
    // comment, and the shell ran the rest of the path as a command line.
    const entry = join(base, 'clone\n$(touch injected) `touch injected` "it\'s quoted"', "ctx.js");
    const { path } = await installLauncher({ dir, nodeBin: "/bin/echo", entry, pathVariable: "" });
    expect(execFileSync(path, ["status"], { cwd: base }).toString()).toBe(`${entry} status\n`);
    expect(existsSync(join(base, "injected"))).toBe(false);
    // The comment is one line; the path's newline stays only inside the exec line's single quotes.
    const lines = readFileSync(path, "utf8").split("\n");
    expect(lines[1]).toContain("clone\\n$(touch injected)");
    expect(lines[2]).toMatch(/^exec /);
  });

  it("needs the folder to exist (it does not make folders you name)", async () => {
    const missing = join(mkdtempSync(join(tmpdir(), "ctx-launcher-unit-")), "no-such-bin");
    const error = await rejectedCtxError(
      installLauncher({ dir: missing, nodeBin: "/bin/echo", entry: "/x.js", pathVariable: "" }),
    );
    expect(error.code).toBe("NOT_FOUND");
  });
});
