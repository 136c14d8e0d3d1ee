import { mkdir, mkdtemp, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { newBridgeSession } from "../../core/bridge/session.ts";
import {
  deleteBridgeSession,
  listBridgeSessions,
  readBridgeSession,
  sessionPath,
  updateBridgeSession,
} from "./session-store.ts";

const identity = (key: string) => ({ key, userId: "1", username: "ann", channelId: null, channelName: null });
const now = new Date("2026-01-01T00:00:00Z");

describe("the bridge session store", () => {
  it("writes a checksummed 0600 container per conversation, named by a hash of its key", async () => {
    const dir = join(await mkdtemp(join(tmpdir(), "ctx-bridge-")), "sessions");
    await updateBridgeSession(dir, "dm:1/../../x", () => ({
      ...newBridgeSession(identity("dm:1/../../x"), now),
      messages: 3,
    }));
    const path = sessionPath(dir, "dm:1/../../x");
    expect(path.startsWith(dir)).toBe(true);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await readBridgeSession(dir, "dm:1/../../x"))?.messages).toBe(3);
    expect(await readBridgeSession(dir, "dm:2")).toBeNull();
    expect(await deleteBridgeSession(dir, "dm:1/../../x")).toBe(true);
    expect(await deleteBridgeSession(dir, "dm:1/../../x")).toBe(false);
  });

  it("lists sessions, names a damaged file, and skips and refuses symlinks", async () => {
    const dir = join(await mkdtemp(join(tmpdir(), "ctx-bridge-")), "sessions");
    await updateBridgeSession(dir, "dm:1", () => newBridgeSession(identity("dm:1"), now));
    await writeFile(sessionPath(dir, "dm:2"), "not a container");
    const outside = join(dir, "..", "outside.ctx");
    await writeFile(outside, "x");
    await symlink(outside, sessionPath(dir, "dm:3"));
    await mkdir(join(dir, "ignored-folder"));
    const listed = await listBridgeSessions(dir);
    expect(listed.sessions.map(({ session }) => session.key)).toEqual(["dm:1"]);
    expect(listed.unreadable).toEqual([sessionPath(dir, "dm:2")]);
    expect(await readBridgeSession(dir, "dm:3")).toBeNull();
    await expect(updateBridgeSession(dir, "dm:3", () => newBridgeSession(identity("dm:3"), now))).rejects.toThrow(
      /not a regular file/,
    );
  });
});
