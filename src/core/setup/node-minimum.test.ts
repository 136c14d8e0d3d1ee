// One minimum Node, said in three places: here, package.json `engines` (npm warns on install), and src/bin/ctx.ts
// (which may import nothing, so it spells the number itself).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MIN_NODE, meetsMinimumNode } from "./node-minimum.ts";

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), "utf8");

describe("the minimum Node", () => {
  it("is the same in package.json's engines and in the entry's check", () => {
    expect(JSON.parse(read("package.json")).engines.node).toBe(`>=${MIN_NODE}.0`);
    expect(read("src/bin/ctx.ts")).toContain(`const MIN_NODE = "${MIN_NODE}";`);
  });

  it("compares by major and minor", () => {
    expect(meetsMinimumNode("22.16.0")).toBe(true);
    expect(meetsMinimumNode("v22.23.3")).toBe(true);
    expect(meetsMinimumNode("24.0.0")).toBe(true);
    expect(meetsMinimumNode("22.15.9")).toBe(false);
    expect(meetsMinimumNode("20.20.2")).toBe(false);
  });
});
