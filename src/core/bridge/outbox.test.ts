import { describe, expect, it } from "vitest";
import type { OpenWork } from "./journal.ts";
import { deliveryDeadline, formatAge, gaveUpNoticeText, pendingDelivery } from "./outbox.ts";
import { chatStatusText } from "./status.ts";

const work = (id: string, parts: string[] | null, posted: number, dueAt: string | null): OpenWork => ({
  message: {
    id,
    at: "2026-01-01T00:00:00.000Z",
    key: `dm:${id}`,
    userId: "1",
    username: "u",
    channelId: null,
    channelName: null,
    postId: null,
    text: "t",
    bytes: 1,
  },
  parts,
  posted,
  dueAt,
  gaveUp: null,
});

describe("the outbox's rules", () => {
  it("counts reply parts not delivered yet and the oldest one's due time; not messages still to run", () => {
    const open = [
      work("a", null, 0, null),
      work("b", ["1", "2", "3"], 1, "2026-01-01T00:05:00.000Z"),
      work("c", ["1"], 0, "2026-01-01T00:02:00.000Z"),
      work("d", ["1"], 1, "2026-01-01T00:01:00.000Z"),
      { ...work("e", ["1", "2"], 2, "2026-01-01T00:00:00.000Z"), gaveUp: { from: 0, parts: 2, at: "x" } },
    ];
    expect(pendingDelivery(open)).toEqual({ parts: 3, oldestDueAt: "2026-01-01T00:02:00.000Z" });
    expect(pendingDelivery([])).toEqual({ parts: 0, oldestDueAt: null });
  });

  it("dates the deadline from the first due time and words the notice and ages for people", () => {
    expect(deliveryDeadline("2026-01-01T00:00:00.000Z", 24)).toBe(Date.parse("2026-01-02T00:00:00.000Z"));
    expect(gaveUpNoticeText(3, 24, "2026-01-01T08:30:00.000Z")).toBe(
      "⚠️ 3 reply part(s) could not be delivered within 24 h and were given up (the answer to your message of 2026-01-01 08:30 UTC). Ask again if you still need it.",
    );
    expect(gaveUpNoticeText(1, 0.5, "2026-01-01T08:30:00.000Z")).toContain("within 30 min");
    expect([40_000, 185_000, 7_500_000].map(formatAge)).toEqual(["40 s", "3 min", "2 h 5 min"]);
  });

  it("/status names the reply parts waiting for the chat and the oldest one's age", () => {
    const base = { session: null, windowTokens: 200_000, softLimitTokens: 120_000, queuedHere: 0, queuedTotal: 2 };
    expect(chatStatusText({ ...base, running: 1, pendingParts: 4, oldestPendingMs: 754_000 })).toContain(
      "Outbox: 4 reply part(s) waiting for the chat, the oldest for 12 min.",
    );
    expect(chatStatusText({ ...base, running: 1, pendingParts: 0, oldestPendingMs: null })).not.toContain("Outbox");
  });
});
