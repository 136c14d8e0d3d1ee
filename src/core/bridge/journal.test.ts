import { describe, expect, it } from "vitest";
import { type JournalMessage, type JournalRecord, recordsOf, replayJournal } from "./journal.ts";

const message = (id: string): JournalMessage => ({
  id,
  at: "2026-01-01T00:00:00.000Z",
  key: "dm:1",
  userId: "1",
  username: "u",
  channelId: null,
  channelName: null,
  postId: null,
  text: `text ${id}`,
  bytes: 6,
});

describe("replayJournal", () => {
  it("owes accepted messages in order, minus the done ones, resuming replies after the last posted part", () => {
    const records: JournalRecord[] = [
      { t: "accept", message: message("a") },
      { t: "accept", message: message("b") },
      { t: "accept", message: message("c") },
      { t: "reply", id: "a", parts: ["x"] },
      { t: "posted", id: "a", part: 0 },
      { t: "done", id: "a" },
      { t: "reply", id: "b", parts: ["1", "2", "3"] },
      { t: "posted", id: "b", part: 0 },
      { t: "posted", id: "b", part: 1 },
    ];
    const open = replayJournal(records);
    expect(open.map((work) => [work.message.id, work.parts, work.posted])).toEqual([
      ["b", ["1", "2", "3"], 2],
      ["c", null, 0],
    ]);
    // Rewritten, the journal owes the same.
    expect(replayJournal(recordsOf(open))).toEqual(open);
  });

  it("counts a reply whose every part is settled as done, though its done record is missing (a full disk)", () => {
    const open = replayJournal([
      { t: "accept", message: message("a") },
      { t: "reply", id: "a", parts: ["1", "2"], at: "2026-01-01T00:00:00.000Z" },
      { t: "posted", id: "a", part: 0 },
      { t: "posted", id: "a", part: 1 },
      { t: "accept", message: message("b") },
      { t: "reply", id: "b", parts: ["1"], at: "2026-01-01T00:00:00.000Z" },
      { t: "gave-up", id: "b", from: 0, parts: 1, at: "2026-01-02T00:00:00.000Z" },
      { t: "accept", message: message("c") },
      { t: "reply", id: "c", parts: [], at: "2026-01-01T00:00:00.000Z" },
    ]);
    // b still owes the person its give-up notice; a and the empty reply c have nothing left to post.
    expect(open.map((work) => work.message.id)).toEqual(["b"]);
  });

  it("ignores records of unknown or finished messages and a second accept", () => {
    const open = replayJournal([
      { t: "posted", id: "zz", part: 3 },
      { t: "accept", message: message("a") },
      { t: "accept", message: { ...message("a"), text: "again" } },
      { t: "done", id: "a" },
      { t: "reply", id: "a", parts: ["late"] },
    ]);
    expect(open).toEqual([]);
  });

  it("keeps when a reply was first due and what was given up at its deadline, through a rewrite", () => {
    const open = replayJournal(
      [
        { t: "accept", message: message("old") },
        { t: "reply", id: "old", parts: ["p"] },
        { t: "accept", message: message("a") },
        { t: "reply", id: "a", parts: ["1", "2"], at: "2026-01-01T00:01:00.000Z" },
        { t: "posted", id: "a", part: 0 },
        { t: "accept", message: message("b") },
        { t: "reply", id: "b", parts: ["1", "2", "3"], at: "2026-01-01T00:02:00.000Z" },
        { t: "posted", id: "b", part: 0 },
        { t: "gave-up", id: "b", from: 1, parts: 2, at: "2026-01-02T00:02:00.000Z" },
      ],
      "2026-05-05T00:00:00.000Z",
    );
    expect(open.map((work) => [work.message.id, work.posted, work.dueAt, work.gaveUp])).toEqual([
      // A reply journaled before the outbox existed is due from the replay.
      ["old", 0, "2026-05-05T00:00:00.000Z", null],
      ["a", 1, "2026-01-01T00:01:00.000Z", null],
      ["b", 3, "2026-01-01T00:02:00.000Z", { from: 1, parts: 2, at: "2026-01-02T00:02:00.000Z" }],
    ]);
    expect(replayJournal(recordsOf(open), "2030-01-01T00:00:00.000Z")).toEqual(open);
  });
});
