import { describe, expect, it } from "vitest";
import { thrownCtxError } from "../../../tests/helpers/ctx-error.ts";
import { CURRENT_FORMAT_VERSION, checkFormatVersion, type MigrationTable, migratePayload } from "./migrate.ts";

const PATH = "/p/.ctx/state.ctx";

// A pretend future: v3 is current, with steps 1 -> 2 (rename a field) and 2 -> 3 (add a default).
const future: MigrationTable = {
  currentVersion: 3,
  migrations: {
    1: (value) => {
      const { title, ...rest } = value as { title: string };
      return { ...rest, name: title };
    },
    2: (value) => ({ ...(value as object), tags: [] }),
  },
};

describe("migratePayload", () => {
  it("returns a current-version payload unchanged", () => {
    const value = { a: 1 };
    expect(migratePayload(value, CURRENT_FORMAT_VERSION, PATH)).toBe(value);
  });

  it("applies every step from the file's version up to the current one, in order", () => {
    expect(migratePayload({ title: "x", n: 1 }, 1, PATH, future)).toEqual({ n: 1, name: "x", tags: [] });
    expect(migratePayload({ name: "y" }, 2, PATH, future)).toEqual({ name: "y", tags: [] });
  });

  it("reports a missing step as a ctx bug", () => {
    const gap: MigrationTable = { currentVersion: 3, migrations: { 1: (v) => v } };
    const error = thrownCtxError(() => migratePayload({}, 1, PATH, gap));
    expect(error.code).toBe("INTERNAL");
    expect(error.message).toMatch(/no migration from format version 2 to 3/);
  });

  it("reports a step that throws as a corrupt file naming the path", () => {
    const failing: MigrationTable = {
      currentVersion: 2,
      migrations: {
        1: () => {
          throw new Error("title missing");
        },
      },
    };
    const error = thrownCtxError(() => migratePayload({}, 1, PATH, failing));
    expect(error.code).toBe("STATE_CORRUPT");
    expect(error.message).toBe(`${PATH}: could not migrate from format version 1 to 2: title missing`);
  });
});

describe("checkFormatVersion", () => {
  it("rejects a newer version with a hint to upgrade ctx", () => {
    const error = thrownCtxError(() => checkFormatVersion(CURRENT_FORMAT_VERSION + 1, PATH));
    expect(error.code).toBe("STATE_UNSUPPORTED_VERSION");
    expect(error.message).toContain(PATH);
    expect(error.hint).toMatch(/Upgrade ctx/);
  });

  it("rejects version 0 as corrupt and accepts 1", () => {
    expect(thrownCtxError(() => checkFormatVersion(0, PATH)).code).toBe("STATE_CORRUPT");
    expect(() => checkFormatVersion(1, PATH)).not.toThrow();
  });
});
