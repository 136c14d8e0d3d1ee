// The checkers compiled from zod schemas for the paths that load no zod (build/compile-schemas.ts) are committed
// beside their schemas: each must be what the build would write from the schema as it is now. `pnpm build` rewrites
// them, so under `pnpm test` (which builds first) the first test here passes whatever was committed: the guard is
// `pnpm lint`, which `pnpm check` runs before anything builds. The last two show that lint fails on a stale one, and
// that `pnpm check` and the README's test command (what CI runs) lint before they build.
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { COMPILED_SCHEMAS, compiledPath, staleCompiledSchemas } from "../../build/compile-schemas.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> })
  .scripts;
const STALE = "src/core/guard/state-schema.compiled.ts";

let copy: string | undefined;
afterEach(() => {
  if (copy !== undefined) rmSync(copy, { recursive: true, force: true });
  copy = undefined;
});

describe("compiled schemas", () => {
  it("every *.compiled.ts is current (node build/compile-schemas.ts rewrites them)", async () => {
    expect([...(await staleCompiledSchemas()).keys()]).toEqual([]);
  });

  it("are written beside their schemas", () => {
    expect(Object.keys(COMPILED_SCHEMAS).map(compiledPath)).toContain("src/hooks/runtime/schemas.compiled.ts");
  });

  it("pnpm lint fails on a copy of the tree where one is stale, naming it", () => {
    copy = mkdtempSync(join(tmpdir(), "ctx-compiled-"));
    for (const path of ["src", "build", "biome.json"]) cpSync(join(ROOT, path), join(copy, path), { recursive: true });
    symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
    appendFileSync(join(copy, STALE), "// edited by hand\n");
    // The lint script as pnpm runs it: through sh, node_modules/.bin and this Node first on PATH.
    const lint = spawnSync("sh", ["-c", scripts.lint ?? ""], {
      cwd: copy,
      encoding: "utf8",
      env: {
        ...process.env,
        PATH: [join(copy, "node_modules", ".bin"), dirname(process.execPath), process.env.PATH].join(delimiter),
      },
    });
    expect(lint.status).toBe(1);
    expect(lint.stderr).toContain(`not current (run node build/compile-schemas.ts): ${STALE}`);
  });

  it("pnpm check lints before anything rewrites them, and the README's test command builds no earlier", () => {
    const steps = (scripts.check ?? "").split("&&").map((step) => step.trim());
    const lint = steps.indexOf("pnpm lint");
    expect(lint).toBeGreaterThanOrEqual(0);
    // The steps up to lint build nothing: the build (its first step) is what rewrites the compiled checkers.
    const rewrites = /\bpnpm (run )?build\b|\btsup\b|compile-schemas\.ts(?! --check)/;
    for (const step of steps.slice(0, lint + 1)) expect(scripts[step.replace(/^pnpm /, "")]).not.toMatch(rewrites);
    expect(scripts.lint).toMatch(/^node build\/compile-schemas\.ts --check && /);
    // scripts/test.sh (what .ci/run runs) installs without building, then runs `pnpm check`.
    const test = readFileSync(join(ROOT, "scripts", "test.sh"), "utf8");
    expect(test).toMatch(/^source "\$repo\/scripts\/setup\.sh" --no-build$/m);
    expect(test.trimEnd().split("\n").at(-1)).toBe("pnpm check");
  });
});
