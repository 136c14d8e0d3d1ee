import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { claudeCodePid } from "./claude-pid.ts";

describe("claudeCodePid", () => {
  it("is null when the parent is not Claude Code (here: the test runner)", () => {
    expect(claudeCodePid(process.pid)).toBeNull();
    expect(claudeCodePid(1)).toBeNull();
    expect(claudeCodePid(2 ** 22 + 12345)).toBeNull();
  });

  it.skipIf(process.platform !== "linux")("recognises a process whose command is claude", async () => {
    // A stand-in named `claude`: `exec -a claude sleep 5` sets its argv[0].
    const child = spawn("bash", ["-c", "exec -a claude sleep 5"], { stdio: "ignore" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    try {
      expect(claudeCodePid(child.pid ?? 0)).toBe(child.pid);
    } finally {
      child.kill();
    }
  });
});
