// The pager: which command runs (git's rules), and a real one through the shell receiving the text, and the person
// quitting it early (the pipe closed) ending the writing quietly.
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openPager, pagerCommand } from "./pager.ts";

function binWith(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), "ctx-pager-bin-"));
  writeFileSync(join(dir, name), "#!/bin/sh\ncat\n");
  chmodSync(join(dir, name), 0o755);
  return dir;
}

describe("pagerCommand", () => {
  it("runs $PAGER when set, none when it is empty or cat, else less when it is on PATH", () => {
    expect(pagerCommand({ PAGER: "most -s", PATH: "" })).toBe("most -s");
    expect(pagerCommand({ PAGER: "", PATH: binWith("less") })).toBeNull();
    expect(pagerCommand({ PAGER: " cat ", PATH: binWith("less") })).toBeNull();
    expect(pagerCommand({ PATH: binWith("less") })).toBe("less");
    expect(pagerCommand({ PATH: binWith("more") })).toBeNull();
  });
});

describe("openPager", () => {
  it("hands the text to the pager through its stdin, with LESS set unless the person set it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ctx-pager-"));
    const out = join(dir, "paged");
    const pager = openPager({ PATH: process.env.PATH, PAGER: `cat > '${out}'; echo "$LESS" >> '${out}'` });
    expect(pager).not.toBeNull();
    await pager?.write("one\n");
    await pager?.write("x".repeat(1024 * 1024));
    await pager?.end();
    const paged = readFileSync(out, "utf8");
    expect(paged.startsWith("one\nxxx")).toBe(true);
    expect(paged.endsWith("xFRX\n")).toBe(true);
    expect(paged.length).toBe(4 + 1024 * 1024 + 4);
  });

  it("stops quietly when the person quits the pager before the end", async () => {
    const pager = openPager({ PATH: process.env.PATH, PAGER: "head -c 10 > /dev/null" });
    for (let i = 0; i < 200 && pager?.closed !== true; i++) await pager?.write("y".repeat(64 * 1024));
    await pager?.end();
    expect(pager?.closed).toBe(true);
  });
});
