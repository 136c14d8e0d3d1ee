// Each install method gets a fix that works for it; none but an npx copy is told to `npm install -g claude-ctx`,
// which is not on the registry.
import { describe, expect, it } from "vitest";
import { detectInstallKind, type InstallFacts, onPathFix } from "./install-method.ts";

const facts = (entry: string, more: Partial<InstallFacts> = {}): InstallFacts => ({
  entry,
  packageRoot: entry.replace(/\/dist\/ctx\.js$/, ""),
  checkout: false,
  version: "0.1.0",
  ...more,
});

describe("install method", () => {
  it("tells a checkout, a packed install, a plugin and an npx copy apart", () => {
    expect(detectInstallKind(facts("/home/a/ctx/dist/ctx.js", { checkout: true }))).toBe("checkout");
    expect(detectInstallKind(facts("/usr/lib/node_modules/claude-ctx/dist/ctx.js"))).toBe("package");
    expect(detectInstallKind(facts("/home/a/.claude/plugins/cache/ctx/ctx/0.1.0/dist/ctx.js"))).toBe("plugin");
    expect(detectInstallKind(facts("/opt/p/dist/ctx.js", { pluginRoot: "/opt/p" }))).toBe("plugin");
    expect(detectInstallKind(facts("/home/a/.npm/_npx/1234/node_modules/claude-ctx/dist/ctx.js"))).toBe("npx");
    expect(detectInstallKind(facts("/somewhere/dist/ctx.js"))).toBe("unknown");
  });

  it("names the fix of the method in use", () => {
    expect(onPathFix(facts("/home/a/my ctx/dist/ctx.js", { checkout: true }))).toBe(
      "from the checkout: cd '/home/a/my ctx' && npm pack && npm install -g ./claude-ctx-0.1.0.tgz",
    );
    expect(onPathFix(facts("/usr/lib/node_modules/claude-ctx/dist/ctx.js"))).toContain("npm prefix -g");
    expect(onPathFix(facts("/home/a/.claude/plugins/x/dist/ctx.js"))).toContain(
      "ln -sf /home/a/.claude/plugins/x/dist/ctx.js ~/.local/bin/ctx",
    );
    for (const entry of ["/usr/lib/node_modules/claude-ctx/dist/ctx.js", "/somewhere/dist/ctx.js"])
      expect(onPathFix(facts(entry))).not.toContain("npm install -g claude-ctx");
  });
});
