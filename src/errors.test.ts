import { describe, expect, it } from "vitest";
import { CtxError, explainSystemError, isCtxError } from "./errors.ts";

const systemError = (code: string, message: string) => Object.assign(new Error(message), { code });
const sqliteError = (errcode: number, message: string) => Object.assign(new Error(message), { errcode });

describe("break 14: raw stack traces on a full or read-only disk and a malformed index", () => {
  it.each([
    ["ENOSPC", /disk is full/],
    ["EROFS", /read-only/],
    ["EACCES", /may not write there/],
    ["EDQUOT", /quota/],
  ])("%s becomes a ctx error with a hint", (code, hint) => {
    const explained = explainSystemError(systemError(code, `${code}: write failed, '/x/.ctx/state.ctx'`));
    expect(explained).toBeInstanceOf(CtxError);
    expect(explained?.message).toContain("/x/.ctx/state.ctx");
    expect(explained?.hint).toMatch(hint);
  });

  it("SQLite's read-only, corrupt, full and not-a-database codes (extended codes too) get their hints", () => {
    expect(explainSystemError(sqliteError(8, "attempt to write a readonly database"))?.hint).toMatch(/read-only/);
    expect(explainSystemError(sqliteError(11, "database disk image is malformed"))).toMatchObject({
      code: "INDEX_CORRUPT",
      hint: expect.stringMatching(/ctx reindex/),
    });
    expect(explainSystemError(sqliteError(267, "malformed (extended)"))?.code).toBe("INDEX_CORRUPT"); // 11 | 1<<8
    expect(explainSystemError(sqliteError(13, "database or disk is full"))?.hint).toMatch(/disk is full/);
    expect(explainSystemError(sqliteError(26, "file is not a database"))?.hint).toMatch(/ctx reindex/);
  });

  it("a bug stays a bug (null: the stack is printed), and a CtxError is left as it is", () => {
    expect(explainSystemError(new TypeError("x is undefined"))).toBeNull();
    expect(explainSystemError(systemError("ENOENT", "no such file"))).toBeNull();
    expect(explainSystemError(new CtxError("USAGE", "bad flag"))).toBeNull();
    expect(explainSystemError("a string")).toBeNull();
  });
});

describe("isCtxError across builds", () => {
  it("knows another build's copy of CtxError by its name and code, and nothing else by them", () => {
    class OtherCopy extends Error {
      readonly code = "STATE_CORRUPT";
      constructor(message: string) {
        super(message);
        this.name = "CtxError";
      }
    }
    expect(isCtxError(new OtherCopy("x"))).toBe(true);
    expect(isCtxError(Object.assign(new Error("x"), { code: "E" }))).toBe(false);
    expect(isCtxError({ name: "CtxError", code: "E", message: "x" })).toBe(false);
  });
});
