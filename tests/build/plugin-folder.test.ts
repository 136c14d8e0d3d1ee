// `pnpm build` writes the Claude Code plugin into plugin/ (src/setup/plugin-folder.ts): the files the code renders, the
// built program, and its runtime packages without the dev ones, in a folder git ignores. It must run on its own, from
// anywhere (Claude Code also copies it into its cache): a copy outside this checkout answers a real MCP client here, and
// tests/e2e/claude-code.test.ts installs it through the marketplace in the real Claude Code.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, describe, expect, it } from "vitest";
import { meetsMinimumNode } from "../../src/core/setup/node-minimum.ts";
import { PLUGIN_FOLDER, renderPluginFiles } from "../../src/core/setup/plugin-files.ts";
import { readPluginMeta } from "../../src/setup/plugin-files-write.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const PLUGIN = join(ROOT, PLUGIN_FOLDER);
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const temps: string[] = [];

afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
});

describe("the plugin folder the build writes", () => {
  it("holds the files the code renders, its commands running the Node that built it", async () => {
    const manifest = JSON.parse(readFileSync(join(PLUGIN, ".claude-plugin", "plugin.json"), "utf8"));
    const node = manifest.mcpServers.ctx.command as string;
    // An absolute path to a Node that runs ctx (pnpm build ran on it), not whatever `node` PATH holds later.
    expect(isAbsolute(node), node).toBe(true);
    const version = spawnSync(node, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout.trim();
    expect(meetsMinimumNode(version), version).toBe(true);
    for (const [path, content] of Object.entries(renderPluginFiles(await readPluginMeta(ROOT), node))) {
      expect(readFileSync(join(ROOT, path), "utf8"), path).toBe(content);
    }
  });

  it("is ignored by git, so no commit carries it", () => {
    const ignored = spawnSync("git", ["check-ignore", PLUGIN_FOLDER], { cwd: ROOT, encoding: "utf8" });
    expect(ignored.stdout.trim()).toBe(PLUGIN_FOLDER);
    const tracked = spawnSync("git", ["ls-files", "--", PLUGIN_FOLDER], { cwd: ROOT, encoding: "utf8" });
    expect(tracked.stdout).toBe("");
  });

  it("holds this build and the runtime packages, and none of the dev ones", () => {
    expect(readFileSync(join(PLUGIN, "dist", "ctx.js"))).toEqual(readFileSync(join(ROOT, "dist", "ctx.js")));
    expect(JSON.parse(readFileSync(join(PLUGIN, "package.json"), "utf8"))).toMatchObject({ type: "module" });
    for (const name of Object.keys(pkg.dependencies)) {
      expect(existsSync(join(PLUGIN, "node_modules", name, "package.json")), name).toBe(true);
    }
    for (const name of Object.keys(pkg.devDependencies)) {
      expect(existsSync(join(PLUGIN, "node_modules", name)), name).toBe(false);
    }
    // The embedder's runtime (hundreds of megabytes, installed only on request) and the dev tools are in no store entry.
    const store = spawnSync("ls", [join(PLUGIN, "node_modules", ".pnpm")], { encoding: "utf8" }).stdout;
    expect(store).not.toMatch(/onnxruntime|@huggingface|vitest|typescript/);
  });

  it("runs from a copy outside this checkout, with no packages but its own", async () => {
    const base = mkdtempSync(join(tmpdir(), "ctx-plugin-"));
    temps.push(base);
    const copy = join(base, "cache", "ctx");
    // Claude Code's copy keeps a link inside the folder as a link (node_modules/<name> -> .pnpm/...): so does this one.
    cpSync(PLUGIN, copy, { recursive: true, verbatimSymlinks: true });
    const project = join(base, "project");
    mkdirSync(project);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(copy, "dist", "ctx.js"), "serve"],
      cwd: project,
      env: { PATH: process.env.PATH ?? "", HOME: base, CTX_LOG_LEVEL: "error" },
      stderr: "pipe",
    });
    const client = new Client({ name: "plugin-folder-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("ctx_status");
      const status = await client.callTool({ name: "ctx_status", arguments: {} });
      expect(status.isError ?? false).toBe(false);
    } finally {
      await client.close();
    }
  }, 30_000);
});
