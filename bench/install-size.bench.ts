// The size of what people install: `npm pack` (the tarball and its unpacked files) and a real `npm install -g` of
// that tarball into a temp prefix (the registry is needed for the dependencies; without it only the packed figures
// are reported, with the reason). The nomic embedder's packages are not part of it (`ctx embed --setup`).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { folderBytes } from "../src/search/embedders/transformers-package.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));

export async function run(): Promise<Record<string, unknown>> {
  const work = mkdtempSync(join(tmpdir(), "ctx-install-size-"));
  try {
    const pack = spawnSync("npm", ["pack", "--json", "--pack-destination", work], { cwd: REPO, encoding: "utf8" });
    if (pack.status !== 0) return { error: `npm pack failed: ${pack.stderr.trim().split("\n").at(-1)}` };
    const [packed] = JSON.parse(pack.stdout) as Array<{ size: number; unpackedSize: number; entryCount: number }>;
    const tarball = readdirSync(work).find((name) => name.endsWith(".tgz")) ?? "";
    const started = performance.now();
    const install = spawnSync(
      "npm",
      ["install", "-g", "--prefix", join(work, "prefix"), "--no-audit", "--no-fund", join(work, tarball)],
      { encoding: "utf8", timeout: 300_000 },
    );
    const installed =
      install.status === 0
        ? {
            installedBytes: await folderBytes(join(work, "prefix")),
            installMs: Math.round(performance.now() - started),
          }
        : { installSkipped: `npm install failed: ${install.stderr.trim().split("\n").at(-1) ?? ""}` };
    return {
      tarballBytes: packed?.size,
      unpackedBytes: packed?.unpackedSize,
      files: packed?.entryCount,
      ...installed,
      loadavg: (await import("node:os")).loadavg().map((n) => Number(n.toFixed(2))),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
