// The settings as `ctx config` edits them: every key accepts its own default typed as a person would type it,
// the allowed values are read from the schema, and a refused value names the field and what it takes.
import { describe, expect, it } from "vitest";
import { thrownCtxError } from "../../tests/helpers/ctx-error.ts";
import { defaultConfig } from "./defaults.ts";
import { configLeaves } from "./merge.ts";
import {
  describeAllowed,
  formatSettingValue,
  listSettings,
  parseSettingValue,
  settingKeys,
  withoutSetting,
  withSetting,
} from "./settings.ts";

describe("settings", () => {
  it("every key parses its own default back from the text `ctx config get` prints", () => {
    const leaves = configLeaves(defaultConfig());
    expect(leaves.length).toBeGreaterThan(50);
    for (const leaf of leaves) {
      const key = leaf.path.join(".");
      const typed = parseSettingValue(key, formatSettingValue(leaf.defaultValue).replace(/^""$/, ""));
      expect(typed, key).toEqual(leaf.defaultValue);
    }
  });

  it("describes what each kind of setting allows, from the schema's own checks", () => {
    expect(describeAllowed("guard.enabled")).toBe("true or false");
    expect(describeAllowed("embedder.provider")).toBe("one of none, nomic, ollama");
    expect(describeAllowed("search.minSimilarity")).toBe("a number from 0 to 1");
    expect(describeAllowed("embedder.batchSize")).toBe("a whole number greater than 0 and at most 256");
    expect(describeAllowed("hooks.maxInjectChars")).toBe("a whole number greater than 0 and at most 10000");
    expect(describeAllowed("redaction.allowlist")).toMatch(/list/);
    for (const key of settingKeys()) expect(describeAllowed(key), key).not.toMatch(/^(default|prefault|object)$/);
  });

  it("refuses a value outside the range or not of the type, naming the field and the allowed values", () => {
    const range = thrownCtxError(() => parseSettingValue("search.minSimilarity", "1.5"));
    expect(range.message).toBe("search.minSimilarity: 1.5 is refused (must be at most 1)");
    expect(range.hint).toContain("a number from 0 to 1");
    const choice = thrownCtxError(() => parseSettingValue("summaries.provider", "gpt"));
    expect(choice.hint).toContain("one of extractive, claude-cli, anthropic");
    expect(thrownCtxError(() => parseSettingValue("guard.enabled", "maybe")).message).toContain("not true or false");
    expect(thrownCtxError(() => parseSettingValue("checkpoints.keep", "2.5")).message).toContain(
      "must be a whole number",
    );
    expect(thrownCtxError(() => parseSettingValue("checkpoints.keep", "0x10")).message).toContain("not a number");
  });

  it("names the section's keys for an unknown key, and refuses a section", () => {
    const unknown = thrownCtxError(() => parseSettingValue("guard.warnPercent", "3"));
    expect(unknown.message).toBe('unknown setting "guard.warnPercent"');
    expect(unknown.hint).toContain("guard.warningPercent");
    expect(thrownCtxError(() => parseSettingValue("budget.caps", "3")).hint).toContain("budget.caps.active_task");
  });

  it("reads lists as JSON or comma-separated", () => {
    expect(parseSettingValue("redaction.allowlist", '["a,b","c"]')).toEqual(["a,b", "c"]);
    expect(parseSettingValue("redaction.allowlist", "a, b")).toEqual(["a", "b"]);
  });

  it("names the layer each value comes from: the last layer that sets it", () => {
    const layers = [
      {
        kind: "global" as const,
        source: "/h/config.json",
        value: { guard: { enabled: false }, search: { minSimilarity: 0.3 } },
      },
      { kind: "project" as const, source: "/p/.ctx/config.json", value: { search: { minSimilarity: 0.4 } } },
      { kind: "environment" as const, source: "environment", value: { guard: { enabled: true } } },
    ];
    const effective = withSetting(
      withSetting(defaultConfig() as unknown as Record<string, unknown>, ["search", "minSimilarity"], 0.4),
      ["guard", "enabled"],
      true,
    );
    const byKey = new Map(listSettings(effective, layers).map((s) => [s.key, s]));
    expect(byKey.get("search.minSimilarity")).toMatchObject({
      value: 0.4,
      source: "project",
      from: "/p/.ctx/config.json",
    });
    expect(byKey.get("guard.enabled")).toMatchObject({
      value: true,
      source: "environment",
      from: "CTX_GUARD__ENABLED",
    });
    expect(byKey.get("checkpoints.keep")).toMatchObject({ value: 10, source: "default", from: null });
  });

  it("removes a key and the sections it leaves empty, and keeps the rest", () => {
    const file = { search: { weights: { recency: 0.3 }, minSimilarity: 0.3 }, guard: { enabled: false } };
    expect(withoutSetting(file, ["search", "weights", "recency"])).toEqual({
      search: { minSimilarity: 0.3 },
      guard: { enabled: false },
    });
    expect(withoutSetting({ guard: { enabled: false } }, ["guard", "enabled"])).toEqual({});
    expect(file.search.weights.recency).toBe(0.3);
  });
});
