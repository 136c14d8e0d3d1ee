import { describe, expect, it } from "vitest";
import { isItemError, setAsideReason, writeSettingAside } from "./set-aside.ts";

/** An error as node-postgres gives the server's: a message and a SQLSTATE. */
function serverError(code: string, message = "refused"): Error {
  return Object.assign(new Error(message), { code });
}

describe("setting aside what the server refuses for one session", () => {
  it("counts data, integrity and size refusals as an item's, and nothing that holds for every push", () => {
    for (const code of ["22021", "22P05", "22001", "23514", "23505", "23503", "54000"]) {
      expect(isItemError(serverError(code))).toBe(true);
    }
    // Permissions, a timeout or cancel, a lock not granted, a dropped connection, a server shutting down, a missing
    // function (a schema to migrate), a deadlock: none of them is the session's fault.
    for (const code of ["42501", "57014", "55P03", "08006", "57P01", "42883", "40P01", "ECONNRESET"]) {
      expect(isItemError(serverError(code))).toBe(false);
    }
    expect(isItemError(new Error("no code"))).toBe(false);
    expect(isItemError(null)).toBe(false);
  });

  it("words the reason as one bounded line, passwords hidden, controls escaped", () => {
    const reason = setAsideReason(
      serverError("23514", 'new row violates check constraint "x"\nfor alice-pw\u001b[2J'),
      ["alice-pw"],
    );
    expect(reason).toBe(
      'the server refused it: new row violates check constraint "x" for ***\\u001b[2J (SQLSTATE 23514)',
    );
    const long = setAsideReason(serverError("54000", "y".repeat(1_000)), []);
    expect(long.length).toBe(300);
    expect(long.endsWith("…")).toBe(true);
  });

  it("writes a refused batch again in halves, down to the one session it refuses; the others go through once", async () => {
    const written: string[][] = [];
    const refused: string[] = [];
    const work = ["a", "b", "bad", "c", "d", "e", "f"];
    const result = await writeSettingAside(
      work,
      async (part) => {
        if (part.includes("bad")) throw serverError("22021");
        written.push([...part]);
        return part.map((id) => `${id}!`);
      },
      (item, error) => {
        refused.push(item);
        expect(isItemError(error)).toBe(true);
      },
    );
    expect(refused).toEqual(["bad"]);
    expect(written.flat().sort()).toEqual(["a", "b", "c", "d", "e", "f"]);
    expect(result.sort()).toEqual(["a!", "b!", "c!", "d!", "e!", "f!"]);
    // 7 sessions, one bad: the whole batch, then halves containing it, each refused once; the rest in few parts.
    expect(written.length).toBeLessThanOrEqual(3);
  });

  it("throws a refusal that is not an item's, without writing anything again", async () => {
    let calls = 0;
    const failing = writeSettingAside(
      ["a", "b"],
      async () => {
        calls += 1;
        throw serverError("42501", "permission denied for table sessions");
      },
      () => {
        throw new Error("nothing is set aside");
      },
    );
    await expect(failing).rejects.toThrow("permission denied");
    expect(calls).toBe(1);
  });
});
