// The checkers compiled from zod schemas for the paths that load no zod (build/compile-schemas.ts) are committed
// beside their schemas: each must be what the build would write from the schema as it is now.
import { describe, expect, it } from "vitest";
import { COMPILED_SCHEMAS, compiledPath, staleCompiledSchemas } from "../../build/compile-schemas.ts";

describe("compiled schemas", () => {
  it("every *.compiled.ts is current (node build/compile-schemas.ts rewrites them)", async () => {
    expect([...(await staleCompiledSchemas()).keys()]).toEqual([]);
  });

  it("are written beside their schemas", () => {
    expect(Object.keys(COMPILED_SCHEMAS).map(compiledPath)).toContain("src/hooks/runtime/schemas.compiled.ts");
  });
});
