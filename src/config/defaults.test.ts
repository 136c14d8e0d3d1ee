import { describe, expect, it } from "vitest";
import { defaultConfig } from "./defaults.ts";
import { configSchema } from "./schema.ts";

describe("default config", () => {
  it("is a whole config the schema passes as it is: every setting has a default, and every default a setting", () => {
    expect(configSchema().parse(defaultConfig())).toEqual(defaultConfig());
  });

  it("hands out copies, so one caller's change never leaks into another's defaults", () => {
    const mine = defaultConfig();
    mine.retention.maxSnapshots = 99;
    expect(defaultConfig().retention.maxSnapshots).toBe(5);
  });
});
