import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { rejectedCtxError } from "../../../tests/helpers/ctx-error.ts";
import { compileChecker } from "../../core/schema/compile.ts";
import { planOf } from "../../core/schema/plan.ts";
import { encodeContainer } from "./container.ts";
import { readStateFile, updateStateFile, verifyStateFile, writeStateFile } from "./state-file.ts";

const TaskSchema = z.object({ id: z.string(), done: z.boolean(), note: z.optional(z.string()) });
const StateSchema = z.object({ version: z.number(), tasks: z.array(TaskSchema) });
type State = z.infer<typeof StateSchema>;
const CounterSchema = z.object({ count: z.number() });

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ctx-state-"));
  path = join(dir, ".ctx", "state.ctx");
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const sample: State = {
  version: 3,
  tasks: [
    { id: "a", done: false, note: "write tests" },
    { id: "b", done: true },
  ],
};

describe("readStateFile / writeStateFile", () => {
  it("returns null for a file that does not exist", async () => {
    expect(await readStateFile(path, StateSchema)).toBeNull();
  });

  it.each(["none", "lz4", "zstd"] as const)("round-trips a value with codec %s", async (codec) => {
    expect(await writeStateFile(path, StateSchema, sample, { codec })).toEqual(sample);
    expect(await readStateFile(path, StateSchema)).toEqual(sample);
    expect(await verifyStateFile(path)).toEqual({ ok: true, formatVersion: 1, codec, bytes: statSync(path).size });
  });

  it("creates the folder 0700 and the file 0600", async () => {
    await writeStateFile(path, StateSchema, sample, { codec: "lz4" });
    expect(statSync(join(dir, ".ctx")).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, ".ctx"))).toEqual(["state.ctx"]);
  });

  it("writes what the schema outputs (unknown keys stripped)", async () => {
    const extra = { ...sample, scratch: "not in the schema" } as State;
    await writeStateFile(path, StateSchema, extra, { codec: "none" });
    expect(await readStateFile(path, z.record(z.string(), z.unknown()))).toEqual(sample);
  });

  it("refuses to write a value that fails its schema, naming the field, and writes nothing", async () => {
    const bad = { version: 3, tasks: [{ id: "a", done: "yes" }] } as unknown as State;
    const error = await rejectedCtxError(writeStateFile(path, StateSchema, bad, { codec: "lz4" }));
    expect(error.code).toBe("INTERNAL");
    expect(error.message).toBe(`refusing to write ${path}: field tasks.0.done: expected boolean, found string`);
    expect(existsSync(path)).toBe(false);
  });

  it("reports a file that fails its schema as corrupt, naming path and field", async () => {
    await writeStateFile(path, z.object({ version: z.string() }), { version: "3" }, { codec: "lz4" });
    const error = await rejectedCtxError(readStateFile(path, StateSchema));
    expect(error.code).toBe("STATE_CORRUPT");
    expect(error.message).toBe(`${path}: field version: expected number, found string (and 1 more problem)`);
  });
});

describe("with a checker compiled from the schema (core/schema/validator.ts: what the hooks pass)", () => {
  const checkState = compileChecker<State>(planOf(StateSchema));

  it("reads, writes and updates as with the zod schema", async () => {
    await writeStateFile(path, checkState, sample, { codec: "lz4" });
    expect(await readStateFile(path, checkState)).toEqual(sample);
    const next = await updateStateFile(path, checkState, (current) => ({ ...(current ?? sample), version: 4 }), {
      codec: "none",
    });
    expect(next.version).toBe(4);
    expect(await readStateFile(path, StateSchema)).toEqual(next);
  });

  it("reports a file that fails it as corrupt, naming path and field (its first problem only)", async () => {
    await writeStateFile(path, z.object({ version: z.string() }), { version: "3" }, { codec: "lz4" });
    const error = await rejectedCtxError(readStateFile(path, checkState));
    expect(error.code).toBe("STATE_CORRUPT");
    expect(error.message).toBe(`${path}: field version: expected number, found string`);
    const bad = { version: 3, tasks: [{ id: "a", done: "yes" }] } as unknown as State;
    const refused = await rejectedCtxError(writeStateFile(path, checkState, bad, { codec: "none" }));
    expect(refused.message).toBe(`refusing to write ${path}: field tasks.0.done: expected boolean, found string`);
  });
});

describe("updateStateFile", () => {
  it("starts from null, then from the stored value, and returns the new value", async () => {
    const seen: Array<number | null> = [];
    for (let i = 0; i < 3; i++) {
      const next = await updateStateFile(
        path,
        CounterSchema,
        (current) => {
          seen.push(current?.count ?? null);
          return { count: (current?.count ?? 0) + 1 };
        },
        { codec: "lz4" },
      );
      expect(next).toEqual({ count: i + 1 });
    }
    expect(seen).toEqual([null, 1, 2]);
    expect(readdirSync(join(dir, ".ctx"))).toEqual(["state.ctx"]);
  });

  it("loses no increment when many updates race in one process", async () => {
    const bump = () => updateStateFile(path, CounterSchema, (c) => ({ count: (c?.count ?? 0) + 1 }), { codec: "lz4" });
    await Promise.all(Array.from({ length: 25 }, bump));
    expect(await readStateFile(path, CounterSchema)).toEqual({ count: 25 });
  });

  it("keeps the old file and releases the lock when the update throws", async () => {
    await writeStateFile(path, CounterSchema, { count: 7 }, { codec: "lz4" });
    const before = readFileSync(path);
    await expect(
      updateStateFile(
        path,
        CounterSchema,
        () => {
          throw new Error("no");
        },
        { codec: "lz4" },
      ),
    ).rejects.toThrow("no");
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(lstatSync(`${path}.lock`, { throwIfNoEntry: false })).toBeUndefined();
  });

  it("refuses to overwrite a damaged file", async () => {
    await writeStateFile(path, CounterSchema, { count: 1 }, { codec: "lz4" });
    const bytes = readFileSync(path);
    writeFileSync(path, bytes.subarray(0, bytes.length - 1));
    const error = await rejectedCtxError(updateStateFile(path, CounterSchema, () => ({ count: 0 }), { codec: "lz4" }));
    expect(error.code).toBe("STATE_CORRUPT");
    expect(readFileSync(path).length).toBe(bytes.length - 1);
  });
});

describe("verifyStateFile", () => {
  it("reports a missing file", async () => {
    expect(await verifyStateFile(path)).toEqual({ ok: false, problem: `${path} does not exist`, code: "NOT_FOUND" });
  });

  it("reports damage and unsupported versions without throwing", async () => {
    await writeStateFile(path, CounterSchema, { count: 1 }, { codec: "zstd" });
    const bytes = readFileSync(path);
    bytes[4] = 9;
    writeFileSync(path, bytes);
    expect(await verifyStateFile(path)).toMatchObject({ ok: false, code: "STATE_UNSUPPORTED_VERSION" });
    writeFileSync(path, encodeContainer({ count: 1 }, "lz4").subarray(0, 30));
    const result = await verifyStateFile(path);
    expect(result).toMatchObject({ ok: false, code: "STATE_CORRUPT" });
    expect(result.ok === false && result.problem).toContain(path);
  });
});
