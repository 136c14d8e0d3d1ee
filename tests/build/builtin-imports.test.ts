// The build's rewrite of built-in imports (build/builtin-imports.ts): every form esbuild and rollup print becomes a
// process.getBuiltinModule read, line for line; and the built ctx holds no ESM import of a built-in any more.
import { readdirSync, readFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { rewriteBuiltinImports } from "../../build/builtin-imports.ts";

describe("rewriteBuiltinImports", () => {
  it("rewrites named, renamed, namespace, default and bare imports of node: modules (a whole module loads at its first use; node:process whole is the global), and nothing else", () => {
    const code = [
      `import { readFileSync, writeFileSync as write$1 } from 'node:fs';`,
      `import { spawn } from "node:child_process";`,
      `import * as zlib from 'node:zlib';`,
      `import os from 'node:os';`,
      `import 'node:sqlite';`,
      `import process from 'node:process';`,
      `import * as process from "node:process";`,
      `import { env } from 'node:process';`,
      `import { z } from './chunk-ABC.js';`,
      `const text = "import { x } from 'node:fs';";`,
    ].join("\n");
    expect(rewriteBuiltinImports(code).split("\n")).toEqual([
      `const { readFileSync, writeFileSync: write$1 } = process.getBuiltinModule("node:fs");`,
      `const spawn = function (...args) { return process.getBuiltinModule("node:child_process").spawn.apply(this, args); };`,
      `const zlib = new Proxy({}, { get: (_, key) => process.getBuiltinModule("node:zlib")[key] });`,
      `const os = new Proxy({}, { get: (_, key) => process.getBuiltinModule("node:os")[key] });`,
      "",
      "",
      "",
      `const { env } = process.getBuiltinModule("node:process");`,
      `import { z } from './chunk-ABC.js';`,
      `const text = "import { x } from 'node:fs';";`,
    ]);
  });

  it("makes a function of node:fs/promises, node:crypto or node:child_process load its module at its first call", async () => {
    const code = rewriteBuiltinImports(`import { constants, readFile as read$1, stat } from 'node:fs/promises';`);
    expect(code).toBe(
      [
        `const { constants } = process.getBuiltinModule("node:fs/promises");`,
        `const read$1 = function (...args) { return process.getBuiltinModule("node:fs/promises").readFile.apply(this, args); };`,
        `const stat = function (...args) { return process.getBuiltinModule("node:fs/promises").stat.apply(this, args); };`,
      ].join(" "),
    );
    const module = new Function(`${code}; return { constants, read$1, stat };`)() as {
      constants: { F_OK: number };
      read$1: (path: string, encoding: string) => Promise<string>;
    };
    expect(module.constants.F_OK).toBe(0);
    expect(await module.read$1(fileURLToPath(import.meta.url), "utf8")).toContain("makes a function");
  });

  it("makes a bundled package's require() of a built-in a getBuiltinModule read, and leaves any other require to esbuild's shim", () => {
    const code = [
      `var EventEmitter = __require("events").EventEmitter;`,
      `const net = __require2('net'), tls = __require("node:tls");`,
      `Native = __require("pg-native");`,
      `const local = __require("./client");`,
    ].join("\n");
    expect(rewriteBuiltinImports(code).split("\n")).toEqual([
      `var EventEmitter = process.getBuiltinModule("events").EventEmitter;`,
      `const net = process.getBuiltinModule("net"), tls = process.getBuiltinModule("node:tls");`,
      `Native = __require("pg-native");`,
      `const local = __require("./client");`,
    ]);
  });

  it("leaves the built output with no static import of a built-in, nor a bundled require() of one", () => {
    const dist = fileURLToPath(new URL("../../dist", import.meta.url));
    // The program's build and the hook entries built on their own (dist/<entry>/).
    const left = readdirSync(dist, { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".js"))
      .flatMap((name) =>
        readFileSync(join(dist, name), "utf8")
          .split("\n")
          .filter(
            (line) =>
              /^import\b.*["']node:/.test(line) ||
              [...line.matchAll(/\b__require\d*\(["']([^"']+)["']\)/g)].some((call) => isBuiltin(call[1] ?? "")),
          )
          .map((line) => `${name}: ${line}`),
      );
    expect(left).toEqual([]);
  });
});
