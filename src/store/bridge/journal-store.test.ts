import { execFileSync } from "node:child_process";
import { appendFile, mkdir, mkdtemp, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { JournalMessage } from "../../core/bridge/journal.ts";
import {
  decodeJournal,
  encodeJournalLine,
  type JournalWrite,
  journalPath,
  openJournal,
  readJournal,
} from "./journal-store.ts";

const message = (id: string): JournalMessage => ({
  id,
  at: "2026-01-01T00:00:00.000Z",
  key: "dm:1",
  userId: "1",
  username: "u",
  channelId: null,
  channelName: null,
  postId: null,
  text: `hello ${id}`,
  bytes: 7,
});

describe("the bridge journal", () => {
  it("remembers the post ids it accepted across reopens and compactions, answered or not (a re-sent webhook)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ctx-journal-"));
    const first = await openJournal(dir);
    expect(first.seen).toEqual([]);
    await first.journal.append({ t: "accept", message: { ...message("a"), postId: "p1" } });
    await first.journal.append({ t: "accept", message: message("b") });
    await first.journal.append({ t: "done", id: "a" });
    await first.journal.append({ t: "done", id: "b" });
    await first.journal.close();
    const second = await openJournal(dir);
    expect(second.open).toEqual([]);
    expect(second.seen).toEqual(["dm:1#p1"]);
    await second.journal.append({ t: "accept", message: { ...message("c"), postId: "p2" } });
    await second.journal.append({ t: "done", id: "c" });
    await second.journal.compact(() => [], 1);
    await second.journal.close();
    const third = await openJournal(dir);
    expect(third.seen).toEqual(["dm:1#p1", "dm:1#p2"]);
    await third.journal.close();
    // Nothing but the seen record is left of the answered messages.
    expect((await readJournal(journalPath(dir))).records).toEqual([{ t: "seen", keys: ["dm:1#p1", "dm:1#p2"] }]);
  });

  it("survives a reopen with only the open work, 0600, skipping a torn last line", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ctx-journal-"));
    const first = await openJournal(dir);
    expect(first.open).toEqual([]);
    await first.journal.append({ t: "accept", message: message("a") });
    await first.journal.append({ t: "accept", message: message("b") });
    await first.journal.append({ t: "reply", id: "a", parts: ["x", "y"] });
    await first.journal.append({ t: "posted", id: "a", part: 0 });
    await first.journal.append({ t: "accept", message: message("c") });
    await first.journal.append({ t: "done", id: "c" });
    await first.journal.close();
    // A crash mid-write leaves half a line.
    await appendFile(journalPath(dir), encodeJournalLine({ t: "done", id: "a" }).slice(0, 20));
    const second = await openJournal(dir);
    expect(second.skipped).toBe(1);
    expect(second.open.map((work) => [work.message.id, work.parts, work.posted])).toEqual([
      ["a", ["x", "y"], 1],
      ["b", null, 0],
    ]);
    await second.journal.close();
    expect((await stat(journalPath(dir))).mode & 0o777).toBe(0o600);
    // Rewritten at open: finished work and the torn line are gone.
    expect((await readJournal(journalPath(dir))).records).toHaveLength(4);
  });

  it("rejects a line whose checksum does not match", () => {
    const line = encodeJournalLine({ t: "done", id: "a" });
    expect(decodeJournal(line).records).toHaveLength(1);
    expect(decodeJournal(line.replace('"a"', '"b"'))).toEqual({ records: [], skipped: 1 });
  });

  it("compacts to the open work once past the line threshold", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ctx-journal-"));
    const { journal } = await openJournal(dir);
    for (let i = 0; i < 10; i += 1) {
      await journal.append({ t: "accept", message: message(String(i)) });
      await journal.append({ t: "done", id: String(i) });
    }
    await journal.compact(() => [], 5);
    await journal.append({ t: "accept", message: message("z") });
    await journal.close();
    const text = await readFile(journalPath(dir), "utf8");
    expect(text.trim().split("\n")).toHaveLength(1);
  });

  it("with a backlog of open work, does not rewrite it again until the file has doubled", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ctx-journal-"));
    const { journal } = await openJournal(dir);
    const backlog = Array.from({ length: 8 }, (_, i) => ({
      message: message(`open${i}`),
      parts: null,
      posted: 0,
      dueAt: null,
      gaveUp: null,
    }));
    for (const work of backlog) await journal.append({ t: "accept", message: work.message });
    let rewrites = 0;
    const open = () => {
      rewrites += 1;
      return backlog;
    };
    await journal.compact(open, 5); // 8 lines past 5: rewritten to the 8 open
    expect(rewrites).toBe(1);
    for (let i = 0; i < 7; i += 1) {
      await journal.append({ t: "accept", message: message(`n${i}`) });
      await journal.append({ t: "done", id: `n${i}` });
      await journal.compact(open, 5); // 10..22 lines: not rewritten until 16 (twice the 8 kept)
    }
    expect(rewrites).toBe(2);
    await journal.close();
    expect((await readJournal(journalPath(dir))).records.length).toBeLessThan(16);
  });

  it("never follows a symlink in place of the journal", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ctx-journal-"));
    const elsewhere = join(dir, "elsewhere");
    await writeFile(elsewhere, "");
    await symlink(elsewhere, journalPath(dir));
    await expect(readJournal(journalPath(dir))).rejects.toThrow(/is not a regular file/);
  });

  it("break 1: recovers every whole record after a torn one, on its own line or run onto the torn bytes", () => {
    const good = (id: string) => encodeJournalLine({ t: "accept", message: message(id) });
    const torn = good("torn").slice(0, 40);
    // Torn bytes, then a newline (this bridge), and torn bytes with the next record run onto them (an older one).
    const text = `${good("a")}${torn}\n${good("b")}${torn}${good("c")}${good("d")}`;
    const read = decodeJournal(text);
    expect(read.records.map((record) => (record.t === "accept" ? record.message.id : ""))).toEqual([
      "a",
      "b",
      "c",
      "d",
    ]);
    expect(read.skipped).toBe(2);
  });

  it("break 1: a short write is completed, and a failed one (ENOSPC) rejects, leaves no torn bytes, and the next record lands on its own line", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ctx-journal-"));
    // "short": every write takes at most 7 bytes; "full": one short write, then ENOSPC (a disk filling up).
    let mode: "short" | "full" | "ok" = "short";
    let shortOnce = false;
    const write: JournalWrite = async (handle, data) => {
      if (mode === "ok") return (await handle.write(data, 0, data.length)).bytesWritten;
      if (mode === "full" && shortOnce)
        throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
      shortOnce = true;
      return (await handle.write(data, 0, Math.min(7, data.length))).bytesWritten;
    };
    const { journal } = await openJournal(dir, { write });
    await journal.append({ t: "accept", message: message("a") }); // written 7 bytes at a time, all of it
    mode = "full";
    shortOnce = false;
    await expect(journal.append({ t: "accept", message: message("lost") })).rejects.toThrow(/ENOSPC/);
    mode = "ok";
    await journal.append({ t: "accept", message: message("b") });
    await journal.close();
    const text = await readFile(journalPath(dir), "utf8");
    expect(text).not.toContain("lost");
    const read = await readJournal(journalPath(dir));
    expect(read.skipped).toBe(0);
    expect(read.records.map((record) => (record.t === "accept" ? record.message.id : ""))).toEqual(["a", "b"]);
  });

  it("break 1: when the torn bytes cannot be cut off, the next record starts a fresh line and both whole ones survive", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ctx-journal-"));
    // "stuck": the write fails after 20 bytes and so does cutting them off; "cuttable": only the write fails.
    let failure: "none" | "stuck" | "cuttable" = "none";
    const write: JournalWrite = async (handle, data) => {
      if (failure === "none") return (await handle.write(data, 0, data.length)).bytesWritten;
      await handle.write(data, 0, 20);
      if (failure === "stuck") {
        const truncate = handle.truncate;
        handle.truncate = async () => {
          handle.truncate = truncate;
          throw Object.assign(new Error("EIO: i/o error"), { code: "EIO" });
        };
      }
      throw Object.assign(new Error("EIO: i/o error, write"), { code: "EIO" });
    };
    const opened = await openJournal(dir, { write });
    await opened.journal.append({ t: "accept", message: message("a") });
    failure = "stuck";
    await expect(opened.journal.append({ t: "accept", message: message("torn") })).rejects.toThrow(/EIO/);
    failure = "none";
    await opened.journal.append({ t: "accept", message: message("b") });
    // A later failure cuts off only its own bytes, never into "b" (written after the first torn bytes).
    failure = "cuttable";
    await expect(opened.journal.append({ t: "accept", message: message("cut") })).rejects.toThrow(/EIO/);
    failure = "none";
    await opened.journal.append({ t: "accept", message: message("c") });
    await opened.journal.close();
    const read = await readJournal(journalPath(dir));
    expect(read.skipped).toBe(1);
    expect(read.records.map((record) => (record.t === "accept" ? record.message.id : ""))).toEqual(["a", "b", "c"]);
  });

  it("break 6: a FIFO at the journal path is refused at once, named in the error", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ctx-journal-"));
    execFileSync("mkfifo", [journalPath(dir)]);
    const started = performance.now();
    await expect(openJournal(dir)).rejects.toThrow(new RegExp(`${journalPath(dir)} is not a regular file`));
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("break 6: a folder at the journal path is refused, named in the error", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ctx-journal-"));
    await mkdir(journalPath(dir));
    await expect(openJournal(dir)).rejects.toThrow(/journal\.log is not a regular file/);
  });
});
