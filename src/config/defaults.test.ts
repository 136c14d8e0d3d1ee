import { describe, expect, it } from "vitest";
import { defaultConfig } from "./defaults.ts";
import { configSchema } from "./schema.ts";

describe("default config", () => {
  it("is exactly what the schema produces from an empty config", () => {
    expect(defaultConfig()).toEqual(configSchema().parse({}));
  });

  it("hands out copies, so one caller's change never leaks into another's defaults", () => {
    const mine = defaultConfig();
    mine.retention.maxSnapshots = 99;
    expect(defaultConfig().retention.maxSnapshots).toBe(5);
  });
});
