import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyLibraryChange } from "../../core/library/annotation.ts";
import {
  changeAnnotation,
  libraryBackupPath,
  libraryDir,
  libraryPath,
  readLibrary,
  readLibraryForMirror,
} from "./library-state.ts";

const A = "11111111-2222-4333-8444-555555555555";
const B = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee";
let home: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "ctx-library-"));
  env = { CTX_HOME: home };
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("the library state", () => {
  it("keeps each session's annotation in a private file, and drops one left empty", async () => {
    await changeAnnotation(env, A, (c) => applyLibraryChange(c, { op: "star" }), new Date(1_000));
    await changeAnnotation(env, B, (c) => applyLibraryChange(c, { op: "tag", labels: ["auth"] }), new Date(2_000));
    expect(await readLibrary(env)).toEqual({
      [A]: { starred: true, labels: [], note: null, updatedAt: 1_000 },
      [B]: { starred: false, labels: ["auth"], note: null, updatedAt: 2_000 },
    });
    expect(statSync(libraryPath(env)).mode & 0o777).toBe(0o600);
    expect(statSync(libraryDir(env)).mode & 0o777).toBe(0o700);
    expect(await changeAnnotation(env, A, (c) => applyLibraryChange(c, { op: "unstar" }))).toBeNull();
    expect(Object.keys(await readLibrary(env))).toEqual([B]);
  });

  it("loses no update when writers race", async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `${String(i).padStart(8, "0")}-2222-4333-8444-555555555555`);
    await Promise.all(ids.map((id) => changeAnnotation(env, id, (c) => applyLibraryChange(c, { op: "star" }))));
    expect(Object.keys(await readLibrary(env)).sort()).toEqual(ids);
  });

  it("a truncated file is moved aside, the backup restored, and the person told; nothing saved is lost", async () => {
    await changeAnnotation(env, A, (c) => applyLibraryChange(c, { op: "tag", labels: ["keep"] }));
    await changeAnnotation(env, B, (c) => applyLibraryChange(c, { op: "star" }));
    const size = statSync(libraryPath(env)).size;
    truncateSync(libraryPath(env), Math.floor(size / 2));
    expect(await readLibraryForMirror(env)).toBeNull();
    await expect(changeAnnotation(env, A, (c) => applyLibraryChange(c, { op: "star" }))).rejects.toThrow(
      /session library was damaged.*restored 2 annotated session\(s\) from its backup/,
    );
    expect(readdirSync(libraryDir(env)).some((name) => name.startsWith("annotations.ctx.corrupt-"))).toBe(true);
    const after = await readLibrary(env);
    expect(after[A]?.labels).toEqual(["keep"]);
    expect(after[A]?.starred).toBe(false); // the refused change was not applied
    expect(after[B]?.starred).toBe(true);
  });

  it("with the backup damaged too, says so and keeps the damaged file", async () => {
    await changeAnnotation(env, A, (c) => applyLibraryChange(c, { op: "star" }));
    writeFileSync(libraryPath(env), "not a container");
    writeFileSync(libraryBackupPath(env), "");
    await expect(readLibrary(env)).rejects.toThrow(/no sound backup; kept it as .*annotations\.ctx\.corrupt-/);
    const aside = readdirSync(libraryDir(env)).find((name) => name.startsWith("annotations.ctx.corrupt-")) ?? "";
    expect(readFileSync(join(libraryDir(env), aside), "utf8")).toBe("not a container");
    expect(await readLibrary(env)).toEqual({});
  });
});
