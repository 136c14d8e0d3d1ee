// The layer rules of .dependency-cruiser.cjs (run by `pnpm deps` in `pnpm check`) can fail: a throwaway tree
// with one planted violation per rule must be rejected, naming each rule, and the same tree without them passes.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const depcruise = join(repo, "node_modules", ".bin", "depcruise");

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

function plant(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "ctx-layers-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function cruise(root: string): { status: number | null; violations: Violation[] } {
  const run = (outputType: string) =>
    spawnSync(depcruise, ["src", "--config", join(repo, ".dependency-cruiser.cjs"), "--output-type", outputType], {
      cwd: root,
      encoding: "utf8",
    });
  // The exit status is what `pnpm deps` (the `err` reporter) gives; the JSON report names the rules.
  const result = JSON.parse(run("json").stdout) as { summary: { violations: Violation[] } };
  return { status: run("err").status, violations: result.summary.violations };
}

const CLEAN = {
  "src/errors.ts": "export class CtxError extends Error {}\n",
  "src/core/guard/tiers.ts": 'import { CtxError } from "../../errors.ts";\nexport const e = CtxError;\n',
  "src/config/load.ts": 'import { e } from "../core/guard/tiers.ts";\nexport const c = e;\n',
  "src/store/files/state.ts": 'import { c } from "../../config/load.ts";\nexport const s = c;\n',
  "src/search/sync/sync-index.ts": 'import { s } from "../../store/files/state.ts";\nexport const x = s;\n',
  // The session index's own modules use SQLite and the handle behind an open index; a test elsewhere may read tables.
  "src/search/session-index/database.ts":
    'import type { DatabaseSync } from "node:sqlite";\nexport type D = DatabaseSync;\n',
  "src/search/session-index/node-sqlite.ts": "export const fts5 = true;\n",
  "src/search/session-index/session-index.ts":
    'import type { D } from "./database.ts";\nimport { fts5 } from "./node-sqlite.ts";\nexport const open = (d?: D) => [d, fts5];\n',
  "src/team/push.test.ts": 'import type { D } from "../search/session-index/database.ts";\nexport type T = D;\n',
  "src/hooks/table.ts": 'import { x } from "../search/sync/sync-index.ts";\nexport const h = x;\n',
  "src/cli/program.ts": 'import { h } from "../hooks/table.ts";\nexport const p = h;\n',
  "src/bin/ctx.ts": 'import { p } from "../cli/program.ts";\nconsole.log(p);\n',
};

describe("the layer rules", () => {
  it("pass a tree whose imports run down the layers", () => {
    const { status, violations } = cruise(plant(CLEAN));
    expect(violations).toEqual([]);
    expect(status).toBe(0);
  });

  it("reject each planted violation, naming its rule", () => {
    const root = plant({
      ...CLEAN,
      // core reading the disk
      "src/core/guard/io.ts": 'import { readFileSync } from "node:fs";\nexport const r = readFileSync;\n',
      // a cycle, type-only on one side
      "src/core/search/a.ts": 'import type { B } from "./b.ts";\nexport type A = { b?: B };\n',
      "src/core/search/b.ts": 'import type { A } from "./a.ts";\nexport type B = { a?: A };\n',
      // core importing the store, config importing the store, the store importing a service
      "src/core/context/up.ts": 'import { s } from "../../store/files/state.ts";\nexport const u = s;\n',
      "src/config/paths.ts": 'import { s } from "../store/files/state.ts";\nexport const q = s;\n',
      "src/store/files/index-rows.ts": 'import { x } from "../../search/sync/sync-index.ts";\nexport const i = x;\n',
      // a service importing a shell, the hooks importing the MCP server and the SDK
      "src/summaries/run.ts": 'import { h } from "../hooks/table.ts";\nexport const w = h;\n',
      // the bridge service importing the CLI, and the store importing the bridge service
      "src/bridge/service.ts": 'import { p } from "../cli/program.ts";\nexport const b = p;\n',
      "src/store/bridge/uses-service.ts": 'import { b } from "../../bridge/service.ts";\nexport const z = b;\n',
      // fork detection importing the team's code (it reaches the team through its port)
      "src/team/search-fetch.ts": 'import { x } from "../search/sync/sync-index.ts";\nexport const t = x;\n',
      "src/search/fork-detect.ts": 'import { t } from "../team/search-fetch.ts";\nexport const f = t;\n',
      // the transplant capability importing the team that uses it
      "src/transplant/place-transcript.ts": 'import { t } from "../team/search-fetch.ts";\nexport const pt = t;\n',
      // SQL against the index outside src/search/session-index/: its handle, node:sqlite, its loader
      "src/team/push-read.ts":
        'import type { D } from "../search/session-index/database.ts";\nexport const read = (d: D) => d;\n',
      "src/search/sync/raw.ts": 'import { DatabaseSync } from "node:sqlite";\nexport const raw = DatabaseSync;\n',
      "src/setup/doctor.ts": 'import { fts5 } from "../search/session-index/node-sqlite.ts";\nexport const d = fts5;\n',
      // the ui page importing the team's fetch (it searches the team through the port), and a service importing the ui
      "src/ui/pages.tsx": 'import { t } from "../team/search-fetch.ts";\nexport const up = t;\n',
      "src/bridge/page.ts": 'import { up } from "../ui/pages.tsx";\nexport const bp = up;\n',
      "src/mcp/server.ts": "export const m = 1;\n",
      "src/hooks/serve.ts":
        'import { m } from "../mcp/server.ts";\nimport { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nexport const v = [m, McpServer];\n',
    });
    const { status, violations } = cruise(root);
    expect(status).not.toBe(0);
    const names = new Set(violations.map((violation) => violation.rule.name));
    expect([...names].sort()).toEqual(
      [
        "config-below-store",
        "core-imports-core",
        "core-no-io",
        "hooks-without-mcp-sdk",
        "no-circular",
        "search-below-other-services",
        "shared-capabilities-below-their-users",
        "services-below-shells",
        "session-index-database-inside",
        "shells-apart",
        "store-below-services",
        "ui-apart",
        "ui-below-team",
      ].sort(),
    );
    expect(violations).toContainEqual(
      expect.objectContaining({ rule: expect.objectContaining({ name: "core-no-io" }), from: "src/core/guard/io.ts" }),
    );
    expect(violations).toContainEqual(
      expect.objectContaining({
        rule: expect.objectContaining({ name: "services-below-shells" }),
        from: "src/bridge/service.ts",
      }),
    );
    expect(violations).toContainEqual(
      expect.objectContaining({
        rule: expect.objectContaining({ name: "search-below-other-services" }),
        from: "src/search/fork-detect.ts",
        to: "src/team/search-fetch.ts",
      }),
    );
    expect(violations).toContainEqual(
      expect.objectContaining({
        rule: expect.objectContaining({ name: "store-below-services" }),
        from: "src/store/bridge/uses-service.ts",
      }),
    );
    const outside = violations.filter((violation) => violation.rule.name === "session-index-database-inside");
    expect(outside.map((violation) => violation.from).sort()).toEqual([
      "src/search/sync/raw.ts",
      "src/setup/doctor.ts",
      "src/team/push-read.ts",
    ]);
  });
});
