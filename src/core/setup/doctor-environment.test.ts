import { describe, expect, it } from "vitest";
import {
  checkConfig,
  checkCtxDir,
  checkForeignMarkers,
  checkLeftoverTempFiles,
  checkNode,
  checkPathCommands,
  checkPrivateModes,
  checkSessionIndex,
  checkStateFiles,
} from "./doctor-environment.ts";

const self = "/lib/claude-ctx/dist/ctx.js";
const mine = (path: string) => ({ path, targets: [self] });
const other = (path: string) => ({ path, targets: [path] });

describe("checkNode", () => {
  it("accepts 22.16 and newer, showing version and path", () => {
    expect(checkNode("22.16.0", "/usr/bin/node")).toEqual({
      id: "node",
      status: "ok",
      message: "Node 22.16.0 (/usr/bin/node)",
    });
    expect(checkNode("24.0.0", "/usr/bin/node").status).toBe("ok");
    expect(checkNode("26.10.0", "/usr/bin/node").status).toBe("ok");
  });

  it("fails a Node 22 whose SQLite has no FTS5 (before 22.16), and one older still", () => {
    for (const version of ["22.15.0", "22.13.1", "22.3.0"]) {
      const finding = checkNode(version, "/usr/bin/node");
      expect(finding.status).toBe("fail");
      expect(finding.message).toContain("needs Node 22.16 or newer");
    }
  });

  it("fails older Node with a fix", () => {
    const finding = checkNode("20.11.1", "/usr/bin/node");
    expect(finding.status).toBe("fail");
    expect(finding.message).toContain("20.11.1");
    expect(finding.fix).toContain("nvm install 22");
  });

  it("fails a new enough Node whose SQLite lacks FTS5 (a custom build), saying so", () => {
    const finding = checkNode("24.1.0", "/opt/node/bin/node", false);
    expect(finding.status).toBe("fail");
    expect(finding.message).toContain("no FTS5 full-text search");
    expect(finding.fix).toContain("official Node build");
  });
});

describe("checkSessionIndex", () => {
  it("blames the Node, not the index, when the Node cannot read it", () => {
    const finding = checkSessionIndex({
      kind: "unreadable",
      path: "/h/.ctx/index.db",
      problem: "this Node's SQLite has no FTS5 full-text search",
      fix: "run ctx with an official Node 22.16 or newer",
    });
    expect(finding).toMatchObject({ status: "fail", fix: "run ctx with an official Node 22.16 or newer" });
    expect(finding.message).not.toContain("damaged");
  });
});

describe("checkPathCommands", () => {
  it("is happy when `ctx` is this program", () => {
    const findings = checkPathCommands({ self, ctx: mine("/bin/ctx"), claudeCtx: mine("/bin/claude-ctx") });
    expect(findings.map((finding) => finding.status)).toEqual(["ok", "ok"]);
  });

  it("says when `ctx` is another tool and init uses claude-ctx", () => {
    const [ctx, claude] = checkPathCommands({ self, ctx: other("/bin/ctx"), claudeCtx: mine("/bin/claude-ctx") });
    expect(ctx).toMatchObject({ status: "warn", fix: expect.stringContaining("claude-ctx") });
    expect(ctx?.message).toContain("another program (/bin/ctx); ctx init uses `claude-ctx`");
    expect(claude?.status).toBe("ok");
  });

  it("asks for the install method's own fix when neither is on PATH, never an unpublished package", () => {
    const findings = checkPathCommands({ self, ctx: null, claudeCtx: null });
    expect(findings.map((finding) => [finding.status, finding.fix])).toEqual([
      ["warn", `ln -sf ${self} ~/.local/bin/ctx`],
      ["warn", `ln -sf ${self} ~/.local/bin/ctx`],
    ]);
    const fromCheckout = checkPathCommands({ self, ctx: null, claudeCtx: null, installFix: "from the checkout: …" });
    expect(fromCheckout[0]?.fix).toBe("from the checkout: …");
  });
});

describe("checkForeignMarkers", () => {
  it("names another user's folders passed over, with the command to remove them quoted", () => {
    expect(checkForeignMarkers([])).toEqual([]);
    const [finding] = checkForeignMarkers(["/tmp/x/.ctx", "/tmp/it's/.git"]);
    expect(finding).toMatchObject({ id: "foreign-project", status: "warn" });
    expect(finding?.message).toContain("ignored /tmp/x/.ctx, /tmp/it's/.git: another user's");
    expect(finding?.fix).toContain("`rm -r /tmp/x/.ctx '/tmp/it'\\''s/.git'`");
  });
});

describe("checkCtxDir", () => {
  it("wants 0700", () => {
    expect(checkCtxDir("/p/.ctx", { kind: "folder", mode: 0o700 }).status).toBe("ok");
    expect(checkCtxDir("/p/.ctx", { kind: "folder", mode: 0o755 })).toMatchObject({
      status: "warn",
      fix: "chmod 700 /p/.ctx",
    });
    expect(checkCtxDir("/p/.ctx", { kind: "missing" })).toMatchObject({ status: "warn", fix: "ctx init" });
  });

  it("fails a .ctx that is not a folder, with init's explanation instead of `ctx init`", () => {
    const finding = checkCtxDir("/p/.ctx", { kind: "other", path: "/p/.ctx", what: "a file" });
    expect(finding).toMatchObject({
      status: "fail",
      message: "/p/.ctx exists but is a file, not a folder: ctx keeps its state in a .ctx/ folder there",
      fix: expect.stringContaining("rename or remove it"),
    });
    expect(finding.fix).toContain("mv /p/.ctx /p/.ctx.other");
  });
});

describe("checkStateFiles", () => {
  it("fails each file that does not verify, with a command to move it aside by its absolute path", () => {
    const findings = checkStateFiles([
      { path: ".ctx/state.ctx", absolutePath: "/p/.ctx/state.ctx", problem: null },
      { path: ".ctx/checkpoints/1.ctx", absolutePath: "/my p/.ctx/checkpoints/1.ctx", problem: "checksum mismatch" },
    ]);
    expect(findings).toEqual([
      expect.objectContaining({
        status: "fail",
        message: expect.stringContaining("checksum mismatch"),
        fix: expect.stringMatching(
          /^mv '\/my p\/\.ctx\/checkpoints\/1\.ctx' '\/my p\/\.ctx\/checkpoints\/1\.ctx\.corrupt'/,
        ),
      }),
    ]);
    expect(findings[0]?.message).toContain("ctx will not use it");
    // No promise of a checkpoint fallback that does not exist.
    expect(findings[0]?.fix).not.toMatch(/falls back|good checkpoint/);
    expect(findings[0]?.fix).toContain("starts that file afresh");
  });

  it("counts the good ones", () => {
    const good = { path: "a.ctx", absolutePath: "/p/a.ctx", problem: null };
    expect(checkStateFiles([good])[0]?.message).toBe("1 state file(s) verify");
    expect(checkStateFiles([])[0]?.message).toBe("no state files yet");
  });
});

describe("checkLeftoverTempFiles", () => {
  it("warns with the count and a command, and is ok with none", () => {
    expect(checkLeftoverTempFiles("/p/.ctx", 0).status).toBe("ok");
    expect(checkLeftoverTempFiles("/p/.ctx", 3)).toMatchObject({
      status: "warn",
      message: expect.stringContaining("3 leftover temp file(s) in /p/.ctx"),
      fix: "find /p/.ctx -name '.*.tmp' -mmin +10 -delete",
    });
  });
});

describe("checkConfig and the session index", () => {
  it("turns a config error into a failing finding with the loader's hint", () => {
    expect(checkConfig({ ok: false, message: "/p/.ctx/config.json: bad", hint: "fix it" })).toMatchObject({
      status: "fail",
      fix: "fix it",
    });
    expect(checkConfig({ ok: true, sources: ["a"] }).status).toBe("ok");
  });

  it("reports a missing index as not built yet, a damaged one as a failure with the reindex fix", () => {
    expect(checkSessionIndex({ kind: "missing", path: "/h/index.db" })).toMatchObject({
      status: "ok",
      message: expect.stringContaining("not built yet"),
    });
    expect(checkSessionIndex({ kind: "corrupt", path: "/h/index.db", problem: "not a database" })).toMatchObject({
      status: "fail",
      message: expect.stringContaining("not a database"),
      fix: "ctx reindex",
    });
    expect(
      checkSessionIndex({ kind: "ok", path: "/h/index.db", sessions: 3, chunks: 40, lastSyncAt: Date.UTC(2026, 0, 2) }),
    ).toMatchObject({
      status: "ok",
      message: expect.stringMatching(/3 session\(s\), 40 chunk\(s\), last sync 2026-01-02/),
    });
  });
});

describe("checkPrivateModes (break 14: doctor is silent on a 0777 CTX_HOME or a 0666 index.db)", () => {
  it("warns about every folder or file others can read, with the chmod that fixes each", () => {
    const finding = checkPrivateModes([
      { path: "/h/.ctx", kind: "folder", mode: 0o777 },
      { path: "/h/.ctx/index.db", kind: "file", mode: 0o666 },
      { path: "/h/.ctx/index.db-wal", kind: "file", mode: null },
      { path: "/p/.ctx", kind: "folder", mode: 0o700 },
    ]);
    expect(finding.status).toBe("warn");
    expect(finding.message).toContain("/h/.ctx is 0777");
    expect(finding.message).toContain("/h/.ctx/index.db is 0666");
    expect(finding.message).not.toContain("/p/.ctx");
    expect(finding.fix).toBe("chmod 700 /h/.ctx && chmod 600 /h/.ctx/index.db");
    expect(finding.message).toContain("(they hold your conversations)");
  });

  it("says a compile-cache folder holds code, not conversations, when only such folders are open", () => {
    const cache = { path: "/h/.ctx/cache/node-compile/v24", kind: "folder", mode: 0o755, holds: "code" } as const;
    const alone = checkPrivateModes([{ path: "/h/.ctx", kind: "folder", mode: 0o700 }, cache]);
    expect(alone.status).toBe("warn");
    expect(alone.message).toContain("/h/.ctx/cache/node-compile/v24 is 0755");
    expect(alone.message).not.toContain("conversations");
    expect(alone.message).toContain("code ctx runs");
    expect(alone.fix).toBe("chmod 700 /h/.ctx/cache/node-compile/v24");
    // With a place that does hold conversations open too, that is the reason given.
    const both = checkPrivateModes([{ path: "/h/.ctx/index.db", kind: "file", mode: 0o644 }, cache]);
    expect(both.message).toContain("(they hold your conversations)");
  });

  it("is ok when everything is private or absent", () => {
    expect(
      checkPrivateModes([
        { path: "/h/.ctx", kind: "folder", mode: 0o700 },
        { path: "/h/.ctx/index.db", kind: "file", mode: 0o600 },
        { path: "/p/.ctx", kind: "folder", mode: null },
      ]).status,
    ).toBe("ok");
  });
});
