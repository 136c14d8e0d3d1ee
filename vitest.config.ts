import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vitest/config";
import { cachedShimPath } from "./tests/helpers/embedder-packages.ts";

const SRC = fileURLToPath(new URL("./src/", import.meta.url));

/**
 * The local embedder's packages are no dependency of ctx: when ctx's own code (src/) imports them in a test, they come
 * from the cache the global setup fills as `ctx embed --setup` would for a user (tests/helpers/embedder-packages.ts).
 * Other importers (a test's own stand-in shim) resolve as they would anywhere.
 */
const embedderPackagesFromCache: Plugin = {
  name: "embedder-packages-from-cache",
  enforce: "pre",
  async resolveId(source, importer) {
    if (source !== "@huggingface/transformers" || importer === undefined || !importer.startsWith(SRC)) return null;
    return this.resolve(source, cachedShimPath(), { skipSelf: true });
  },
};

export default defineConfig({
  plugins: [embedderPackagesFromCache],
  test: {
    include: ["src/**/*.test.ts", "tests/**/*.test.ts"],
    globalSetup: ["tests/global-setup.ts"],
    env: { TZ: "UTC", CTX_LOG_LEVEL: "silent" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
