import { afterEach, describe, expect, it, vi } from "vitest";
import { isCi, missingTool } from "./required-tool.ts";

describe("missingTool", () => {
  const ci = process.env.CI;
  afterEach(() => {
    if (ci === undefined) delete process.env.CI;
    else process.env.CI = ci;
    vi.restoreAllMocks();
  });

  it("is null for a tool that is here", () => {
    expect(missingTool("zsh", true, "apt-get install -y zsh")).toBeNull();
  });

  it("outside CI, skips and says why on stderr", () => {
    delete process.env.CI;
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    expect(missingTool("fish", false, "apt-get install -y fish")).toBe(
      "fish is not installed (apt-get install -y fish)",
    );
    expect(write).toHaveBeenCalledWith("skipped: fish is not installed (apt-get install -y fish)\n");
  });

  it("under CI, fails naming the tool", () => {
    process.env.CI = "true";
    expect(() => missingTool("Chromium", false, "apt-get install -y chromium")).toThrow(/Chromium is not installed/);
  });

  it("reads CI as CI tools set it", () => {
    for (const value of ["true", "1", "yes"]) expect(isCi({ CI: value })).toBe(true);
    for (const value of [undefined, "", "0", "false", "FALSE"]) expect(isCi({ CI: value })).toBe(false);
  });
});
