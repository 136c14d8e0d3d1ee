// Parsing Claude Code's printed output, on text captured from Claude Code 2.1.330.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { doctorInvalidSettings, findTranscript, mcpServerStatus, parseJsonResult } from "./claude-output.ts";

const MCP_LIST = `Checking MCP server health…

ctx: ctx serve - ✔ Connected
ctx-old: /usr/bin/node /x/ctx.js serve - ✘ Failed to connect — CONNECTION_CLOSED: Connection closed
other: npx other - ⏸ Pending approval (run \`claude\` to approve)
`;

const DOCTOR_BROKEN = `Claude Code doctor

Running: npm-global (2.1.330)
Auto-updates: disabled (set by env: CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC)

Invalid settings
- /p/.claude/settings.json › hooks.SessionBegin: Unknown hook event "SessionBegin" was ignored. Valid events: PreToolUse
- /p/.claude/settings.local.json: Invalid or malformed JSON

Remote Control
- Not signed in to claude.ai
`;

describe("mcpServerStatus", () => {
  it("reads each server's status and nothing for an unlisted one", () => {
    expect(mcpServerStatus(MCP_LIST, "ctx")).toBe("✔ Connected");
    expect(mcpServerStatus(MCP_LIST, "ctx-old")).toBe("✘ Failed to connect — CONNECTION_CLOSED: Connection closed");
    expect(mcpServerStatus(MCP_LIST, "other")).toMatch(/^⏸ Pending approval/);
    expect(mcpServerStatus(MCP_LIST, "missing")).toBeUndefined();
  });
});

describe("doctorInvalidSettings", () => {
  it("lists the section's problems up to the blank line", () => {
    const problems = doctorInvalidSettings(DOCTOR_BROKEN);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^\/p\/\.claude\/settings\.json › hooks\.SessionBegin: Unknown hook event/);
    expect(problems[1]).toBe("/p/.claude/settings.local.json: Invalid or malformed JSON");
  });

  it("is empty without the section", () => {
    expect(doctorInvalidSettings(DOCTOR_BROKEN.replace(/Invalid settings\n(- .*\n)+/, ""))).toEqual([]);
  });
});

describe("parseJsonResult", () => {
  it("takes the result object and ignores other output", () => {
    const stdout = `warning: something\n{"type":"result","subtype":"success","is_error":false,"num_turns":2,"session_id":"s1","permission_denials":[]}\n`;
    expect(parseJsonResult(stdout)).toMatchObject({ session_id: "s1", num_turns: 2 });
    expect(parseJsonResult("Not logged in\n")).toBeUndefined();
    expect(parseJsonResult('{"type":"system"}')).toBeUndefined();
    expect(parseJsonResult("{broken")).toBeUndefined();
  });
});

describe("findTranscript", () => {
  it("finds <session>.jsonl in any project folder under ~/.claude/projects", async () => {
    const home = await mkdtemp(join(tmpdir(), "ctx-find-transcript-"));
    try {
      expect(await findTranscript(home, "s1")).toBeUndefined();
      const folder = join(home, ".claude", "projects", "-tmp-x-project");
      await mkdir(folder, { recursive: true });
      await writeFile(join(folder, "s1.jsonl"), "{}\n");
      expect(await findTranscript(home, "s1")).toBe(join(folder, "s1.jsonl"));
      expect(await findTranscript(home, "s2")).toBeUndefined();
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
