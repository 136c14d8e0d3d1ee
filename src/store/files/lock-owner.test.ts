import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { checkOwnerStatus, describeOwnProcess, parseLockOwner } from "./lock-owner.ts";

/** The pid of a process that has exited and been reaped. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "0"]);
  if (child.pid === undefined) throw new Error("could not spawn node");
  return child.pid;
}

describe("lock owner records", () => {
  it("describes this process and parses back", () => {
    const owner = describeOwnProcess("abc");
    expect(owner).toMatchObject({ pid: process.pid, host: hostname(), token: "abc" });
    if (process.platform === "linux") expect(owner.startTime).toMatch(/^\d+$/);
    expect(parseLockOwner(JSON.stringify(owner))).toEqual(owner);
  });

  it("parses empty, partial and foreign lock files as unknown", () => {
    expect(parseLockOwner("")).toBeNull();
    expect(parseLockOwner('{"pid": 12')).toBeNull();
    expect(parseLockOwner('{"pid": "12"}')).toBeNull();
  });
});

describe("checkOwnerStatus", () => {
  it("knows this process is alive", () => {
    const expected = process.platform === "linux" ? "alive" : "unverified";
    expect(checkOwnerStatus(describeOwnProcess("t"))).toBe(expected);
  });

  it("knows an exited process is dead", () => {
    expect(checkOwnerStatus({ ...describeOwnProcess("t"), pid: deadPid() })).toBe("dead");
  });

  it("cannot verify a process on another host", () => {
    expect(checkOwnerStatus({ ...describeOwnProcess("t"), host: `not-${hostname()}` })).toBe("unverified");
  });

  it.skipIf(process.platform !== "linux")("sees a recycled pid through its start time", () => {
    expect(checkOwnerStatus({ ...describeOwnProcess("t"), startTime: "1" })).toBe("dead");
  });
});
