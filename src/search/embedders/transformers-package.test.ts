// `ctx embed --setup` with the real npm, offline, from a local stand-in for @huggingface/transformers: it lands in
// <CTX_HOME>/embedder (0700, shim 0600), ctx imports it from there when it is not installed beside ctx, and a
// failed npm run is a CtxError that says so.
import { mkdirSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rejectedCtxError } from "../../../tests/helpers/ctx-error.ts";
import { embedderPackagesDir, importTransformersPackage, installTransformersPackage } from "./transformers-package.ts";

function setup() {
  const base = mkdtempSync(join(tmpdir(), "ctx-embedder-setup-"));
  const standIn = join(base, "transformers-stand-in");
  mkdirSync(standIn);
  writeFileSync(
    join(standIn, "package.json"),
    JSON.stringify({ name: "@huggingface/transformers", version: "4.3.1", type: "module", exports: "./index.js" }),
  );
  writeFileSync(join(standIn, "index.js"), 'export const marker = "the stand-in";\nexport const env = {};\n');
  // Offline and with its cache in the temp folder: the test reaches no registry and touches no user state.
  const env = {
    PATH: process.env.PATH,
    HOME: base,
    CTX_HOME: join(base, "ctx-home"),
    npm_config_offline: "true",
    npm_config_cache: join(base, "npm-cache"),
    npm_config_update_notifier: "false",
  };
  return { base, standIn, env };
}
const notBesideCtx = () => import("@huggingface/not-installed-package" as string);

describe("the nomic embedder's packages, installed on request", () => {
  it("installs with npm into <CTX_HOME>/embedder and is imported from there", async () => {
    const { standIn, env } = setup();
    await expect(importTransformersPackage(env, notBesideCtx)).rejects.toMatchObject({ code: "ERR_MODULE_NOT_FOUND" });
    let output = "";
    const result = await installTransformersPackage({ env, packageSpec: standIn, onOutput: (t) => (output += t) });
    expect(result.dir).toBe(embedderPackagesDir(env));
    expect(statSync(result.dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(result.dir, "load.mjs")).mode & 0o777).toBe(0o600);
    expect(output).toContain("added 1 package");
    const loaded = (await importTransformersPackage(env, notBesideCtx)) as { marker?: string };
    expect(loaded.marker).toBe("the stand-in");
  });

  it("prefers a package installed beside ctx", async () => {
    const { env } = setup();
    const beside = { marker: "beside" };
    expect(await importTransformersPackage(env, async () => beside)).toBe(beside);
  });

  it("reports a failed npm run with its exit code and writes no shim", async () => {
    const { base, env } = setup();
    const error = await rejectedCtxError(
      installTransformersPackage({ env, packageSpec: join(base, "missing-folder") }),
    );
    expect(error.code).toBe("EMBEDDER_UNAVAILABLE");
    expect(error.message).toMatch(/npm install .* failed .* \(exit \d+\)/);
    await expect(importTransformersPackage(env, notBesideCtx)).rejects.toMatchObject({ code: "ERR_MODULE_NOT_FOUND" });
  });
});
