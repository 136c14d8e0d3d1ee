// importBundle on bundles written by the real container writer: a sound one placed with its cwd moved, and every
// hostile one (tampered, truncated, oversized, too deep, escaping, a bad id, too many files) refused whole with
// Claude Code's folder left exactly as it was.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { mkdtemp, readFile, truncate } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { transcriptIn, writeTestBundle } from "../../tests/helpers/bundle-files.ts";
import { rejectedCtxError } from "../../tests/helpers/ctx-error.ts";
import { createGitCheckout } from "../../tests/helpers/team-checkout.ts";
import { DEFAULT_BUNDLE_LIMITS } from "../core/transplant/bundle-manifest.ts";
import { type ImportOptions, importBundle } from "./bundle-import.ts";
import { refuseCheckoutQuestion } from "./locate-checkout.ts";

const ID = "0b6f4a52-9d0e-4c52-a1c9-3f1f9a6f0c11";
const OTHER = "7d1c2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f";
const AUTHOR = "/home/al/src/app";

let base: string;
let checkout: string;
let options: ImportOptions;
let bundle: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "ctx-bundle-import-"));
  checkout = createGitCheckout(base, "clone", "https://github.com/acme/app.git");
  bundle = join(base, "sessions.ctxbundle");
  const env = { HOME: join(base, "home"), CTX_HOME: join(base, "ctx"), CLAUDE_CONFIG_DIR: join(base, "claude") };
  options = {
    path: bundle,
    force: false,
    env,
    cwd: checkout,
    claudeDir: env.CLAUDE_CONFIG_DIR,
    askCheckout: refuseCheckoutQuestion,
    now: new Date("2026-12-01T12:00:00Z"),
  };
});

function claudeFolder(): string[] {
  const root = join(base, "claude");
  try {
    return readdirSync(root, { recursive: true, encoding: "utf8" }).sort();
  } catch {
    return [];
  }
}

const sound = (extra: { annotations?: boolean } = {}) => [
  {
    id: ID,
    remoteUrl: "github.com/acme/app",
    files: [
      { name: `${ID}.jsonl`, text: transcriptIn(ID, AUTHOR) },
      { name: `${ID}/subagents/agent-a1.jsonl`, text: transcriptIn(ID, `${AUTHOR}/web`) },
    ],
    ...(extra.annotations === true ? { annotations: { starred: true, labels: ["auth"], note: "the fix" } } : {}),
  },
];

describe("importBundle", () => {
  it("places each file with its cwd moved into the checkout, hands the annotations on, and leaves an identical copy alone", async () => {
    await writeTestBundle(bundle, sound({ annotations: true }));
    const handed: unknown[] = [];
    const report = await importBundle({
      ...options,
      annotations: async (id, annotation) => void handed.push({ id, annotation }),
    });
    const [session] = report.sessions;
    expect(session).toMatchObject({ sessionId: ID, outcome: "written", files: 2, rewrittenCwdFields: 4 });
    expect(session?.resumeCommand).toBe(`cd ${checkout} && claude --resume ${ID}`);
    const main = readFileSync(session?.transcriptPath as string, "utf8");
    expect(main).not.toContain(AUTHOR);
    expect(JSON.parse(main.split("\n")[0] as string).cwd).toBe(checkout);
    const sub = readFileSync(join(session?.transcriptPath as string, "..", ID, "subagents", "agent-a1.jsonl"), "utf8");
    expect(JSON.parse(sub.split("\n")[0] as string).cwd).toBe(`${checkout}/web`);
    expect(statSync(session?.transcriptPath as string).mode & 0o777).toBe(0o600);
    expect(handed).toEqual([{ id: ID, annotation: { starred: true, labels: ["auth"], note: "the fix" } }]);

    const again = await importBundle(options);
    expect(again.sessions[0]?.outcome).toBe("unchanged");
    expect(readdirSync(join(base, "ctx", "staging"))).toEqual([]);
  });

  it("refuses a different copy without --force, writing nothing, and replaces it with --force", async () => {
    await writeTestBundle(bundle, sound());
    const first = await importBundle(options);
    const path = first.sessions[0]?.transcriptPath as string;
    writeFileSync(path, "changed on this machine\n");
    const before = claudeFolder();
    const error = await rejectedCtxError(importBundle(options));
    expect(error.code).toBe("CONFLICT");
    expect(error.hint).toContain("--force");
    expect(readFileSync(path, "utf8")).toBe("changed on this machine\n");
    expect(claudeFolder()).toEqual(before);
    const forced = await importBundle({ ...options, force: true });
    expect(forced.sessions[0]?.outcome).toBe("replaced");
    expect(readFileSync(path, "utf8")).toContain(checkout);
  });

  it("refuses without a checkout of the project, writing nothing", async () => {
    await writeTestBundle(bundle, [{ ...sound()[0], remoteUrl: "github.com/acme/other" } as never]);
    const error = await rejectedCtxError(importBundle(options));
    expect(error.message).toContain("no checkout of github.com/acme/other");
    expect(claudeFolder()).toEqual([]);
  });
});

describe("a hostile bundle is refused whole, nothing written", () => {
  async function refused(limits = DEFAULT_BUNDLE_LIMITS): Promise<string> {
    const error = await rejectedCtxError(importBundle({ ...options, limits }));
    expect(claudeFolder()).toEqual([]);
    return `${error.code}: ${error.message}`;
  }

  it("one byte changed", async () => {
    await writeTestBundle(bundle, sound());
    const bytes = await readFile(bundle);
    const at = Math.floor(bytes.length / 2);
    bytes[at] = (bytes[at] as number) ^ 0x01;
    writeFileSync(bundle, bytes);
    expect(await refused()).toMatch(/^STATE_CORRUPT: the bundle .* is refused: (checksum mismatch|zstd payload)/);
  });

  it("truncated", async () => {
    await writeTestBundle(bundle, sound());
    await truncate(bundle, statSync(bundle).size - 10);
    expect(await refused()).toMatch(/refused: truncated/);
  });

  it("oversized, whole and per file, and too many files", async () => {
    await writeTestBundle(bundle, sound());
    expect(await refused({ ...DEFAULT_BUNDLE_LIMITS, bundleBytes: 100 })).toMatch(/over the 100 a bundle may be/);
    expect(await refused({ ...DEFAULT_BUNDLE_LIMITS, entryBytes: 100 })).toMatch(/over the 100 bytes one file may be/);
    expect(await refused({ ...DEFAULT_BUNDLE_LIMITS, totalBytes: 1000 })).toMatch(
      /over the 1000 bytes a bundle may hold/,
    );
    expect(await refused({ ...DEFAULT_BUNDLE_LIMITS, entries: 1 })).toMatch(/more than the 1 files/);
  });

  it("a line nested 100,000 deep", async () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}\n`;
    await writeTestBundle(bundle, [
      {
        id: ID,
        remoteUrl: "github.com/acme/app",
        files: [{ name: `${ID}.jsonl`, text: transcriptIn(ID, AUTHOR) + deep }],
      },
    ]);
    expect(await refused()).toMatch(/line 3 of .* nests more than 1000 deep/);
  });

  it.each([
    [`../../${ID}.jsonl`, /leads outside its folder/],
    [`/etc/${ID}.jsonl`, /is an absolute path/],
    [`${ID}\\..\\x.jsonl`, /holds a backslash/],
    [`${ID}/subagents/a\u001b[2J.jsonl`, /holds a control character/],
    [`${OTHER}.jsonl`, /is not a file of session/],
    [`${ID}/subagents/../../../x.jsonl`, /leads outside its folder/],
  ])("an entry named %j", async (name, message) => {
    await writeTestBundle(bundle, [
      {
        id: ID,
        remoteUrl: "github.com/acme/app",
        files: [
          { name: `${ID}.jsonl`, text: transcriptIn(ID, AUTHOR) },
          { name, text: transcriptIn(ID, AUTHOR) },
        ],
      },
    ]);
    expect(await refused()).toMatch(message);
  });

  it("a session id that is not Claude Code's, a project path leading out, a manifest that lies about a file", async () => {
    await writeTestBundle(bundle, [
      { id: "../x", remoteUrl: "github.com/acme/app", files: [{ name: "../x.jsonl", text: "{}\n" }] },
    ]);
    expect(await refused()).toMatch(/"..\/x" is not a Claude Code session id/);
    await writeTestBundle(bundle, [{ ...sound()[0], repoPath: "../../etc" } as never]);
    expect(await refused()).toMatch(/project folder is not a plain path/);
    await writeTestBundle(bundle, sound(), (manifest) => {
      const file = manifest.sessions[0]?.files[1];
      if (file !== undefined) file.sha256 = "0".repeat(64);
      return manifest;
    });
    expect(await refused()).toMatch(/does not match its checksum/);
    await writeTestBundle(bundle, sound(), () => ({ format: "something else" }));
    expect(await refused()).toMatch(/not a ctx session bundle's/);
  });

  it("a manifest nested deep", async () => {
    let deep: unknown = "x";
    // As deep as the msgpack encoder goes (100): past the reader's 64.
    for (let i = 0; i < 90; i++) deep = [deep];
    await writeTestBundle(bundle, sound(), (manifest) => ({ ...manifest, extra: deep }));
    expect(await refused()).toMatch(/nested more than 64 deep/);
  });

  it("a file that is not a bundle, and a missing one", async () => {
    writeFileSync(bundle, "just text\n");
    expect(await refused()).toMatch(/not a ctx container/);
    const error = await rejectedCtxError(importBundle({ ...options, path: join(base, "nothing") }));
    expect(error.code).toBe("NOT_FOUND");
  });
});
