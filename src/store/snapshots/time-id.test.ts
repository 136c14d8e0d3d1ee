import { describe, expect, it } from "vitest";
import { newTimeId, TIME_ID_PATTERN, timeOfId } from "./time-id.ts";

describe("newTimeId", () => {
  it("encodes the time so that ids sort in time order, and decodes back", () => {
    const { id, createdAt } = newTimeId(new Date("2031-02-03T04:05:06.789Z"));
    expect(id).toMatch(/^20310203T040506789Z-[0-9a-f]{6}$/);
    expect(createdAt).toBe("2031-02-03T04:05:06.789Z");
    expect(timeOfId(id)).toBe(createdAt);
  });

  it("issues strictly increasing ids for the same instant, and uses an earlier time as given", () => {
    const instant = new Date("2032-01-01T00:00:00.000Z");
    const ids = [newTimeId(instant), newTimeId(instant), newTimeId(instant)].map((made) => made.id);
    expect([...ids].sort()).toEqual(ids);
    expect(ids.map((id) => id.slice(0, 19))).toEqual([
      "20320101T000000000Z",
      "20320101T000000001Z",
      "20320101T000000002Z",
    ]);
    expect(newTimeId(new Date("2030-01-01T00:00:00.000Z")).createdAt).toBe("2030-01-01T00:00:00.000Z");
  });

  it("rejects anything that is not a time id (the guard against paths in ids)", () => {
    for (const bad of [
      "",
      "../x",
      "20320101T000000000Z-00000",
      "20320101T000000000Z-0000000",
      "20321399T000000000Z-abcdef",
    ]) {
      expect(TIME_ID_PATTERN.test(bad) && timeOfId(bad) !== null).toBe(false);
    }
  });
});
