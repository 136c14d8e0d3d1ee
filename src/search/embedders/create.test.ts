import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { thrownCtxError } from "../../../tests/helpers/ctx-error.ts";
import { writeTinyEmbeddingModel } from "../../../tests/helpers/tiny-embedding-model.ts";
import { defaultConfig } from "../../config/defaults.ts";
import { createEmbedder } from "./create.ts";

const home = mkdtempSync(join(tmpdir(), "ctx-embedder-home-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("createEmbedder", () => {
  it("returns null for the default provider (BM25 alone, offline)", () => {
    expect(createEmbedder(defaultConfig().embedder)).toBeNull();
  });

  it("uses each provider's default model when none is set", () => {
    const config = { ...defaultConfig().embedder, provider: "ollama" as const };
    expect(createEmbedder(config)?.id).toBe("ollama:nomic-embed-text");
  });

  it("looks for the nomic model under <CTX_HOME>/models by default", () => {
    const config = { ...defaultConfig().embedder, provider: "nomic" as const };
    const error = thrownCtxError(() => createEmbedder(config, { env: { CTX_HOME: home } }));
    expect(error.message).toContain(join(home, "models", "nomic-ai", "nomic-embed-text-v1.5"));
    writeTinyEmbeddingModel(join(home, "models"), "nomic-ai/nomic-embed-text-v1.5", { dimensions: 8 });
    expect(createEmbedder(config, { env: { CTX_HOME: home } })?.dimensions).toBe(8);
  });
});
