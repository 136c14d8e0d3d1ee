import { describe, expect, it } from "vitest";
import { isPlainObject, isRecord } from "./record.ts";

class Box {
  items = [1];
}

describe("records and plain objects", () => {
  it("a record is any object but null and arrays; a plain object is one made by {…} or Object.create(null)", () => {
    const values = [{}, Object.create(null), { a: [1] }, new Date(0), new Uint8Array(2), new Box(), [], null, "x", 1];
    expect(values.map(isRecord)).toEqual([true, true, true, true, true, true, false, false, false, false]);
    expect(values.map(isPlainObject)).toEqual([true, true, true, false, false, false, false, false, false, false]);
  });
});
