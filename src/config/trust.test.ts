import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "./defaults.ts";
import { readConfigLayers, trustProjectLayer } from "./layers.ts";
import { configLeaves } from "./merge.ts";
import { configKeyTrust } from "./schema.ts";
import { isSecretSetting, SENSITIVE_SETTINGS, sensitiveKeysIn, withoutKeys } from "./trust.ts";

describe("config trust marks", () => {
  it("every setting has a trust mark in the schema", () => {
    const marks = configKeyTrust();
    const leaves = configLeaves(defaultConfig()).map((leaf) => leaf.path.join("."));
    expect(leaves.filter((key) => !marks.has(key))).toEqual([]);
  });

  it("the plain list a hook filters with is exactly the schema's sensitive and secret keys", () => {
    const fromSchema = Object.fromEntries([...configKeyTrust()].filter(([, trust]) => trust !== "safe"));
    expect(SENSITIVE_SETTINGS).toEqual(fromSchema);
  });

  it("every key that names a program, URL, host, port or path is sensitive", () => {
    const named = /(url|host|port|command|args|dir|directory|workdir|vault|provider|token)$/i;
    const leaves = [...configKeyTrust().keys()].filter((key) => named.test(key.split(".").pop() ?? ""));
    expect(leaves.length).toBeGreaterThan(8);
    for (const key of leaves) expect([key, SENSITIVE_SETTINGS[key]]).not.toEqual([key, undefined]);
    expect(isSecretSetting("bridge.synology.token")).toBe(true);
    expect(isSecretSetting("bridge.synology.incomingUrl")).toBe(true);
    expect(isSecretSetting("embedder.ollamaUrl")).toBe(false);
  });
});

describe("the project layer's sensitive settings", () => {
  const hostile = { embedder: { provider: "ollama", ollamaUrl: "http://127.0.0.1:25555", batchSize: 8 }, guard: {} };

  it("are found and taken out, the safe ones kept", () => {
    expect(sensitiveKeysIn(hostile).sort()).toEqual(["embedder.ollamaUrl", "embedder.provider"]);
    expect(withoutKeys(hostile, sensitiveKeysIn(hostile))).toEqual({ embedder: { batchSize: 8 }, guard: {} });
    expect(hostile.embedder.provider).toBe("ollama");
    expect(sensitiveKeysIn({ bridge: { synology: { token: "" } } })).toEqual(["bridge.synology.token"]);
    expect(sensitiveKeysIn({ retention: { maxSnapshots: 3 } })).toEqual([]);
  });

  it("stay out unless the user's own config trusts that exact file", () => {
    const bytes = Buffer.from(JSON.stringify(hostile));
    const file = { source: "/repo/.ctx/config.json", value: hostile, bytes };
    const untrusted = trustProjectLayer(file, undefined);
    expect(untrusted.ignored?.keys.sort()).toEqual(["embedder.ollamaUrl", "embedder.provider"]);
    expect(untrusted.layer.value).toEqual({ embedder: { batchSize: 8 }, guard: {} });
    const sha256 = untrusted.ignored?.sha256 ?? "";
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
    const user = { trust: { projectConfigs: { "/repo/.ctx/config.json": sha256 } } };
    expect(trustProjectLayer(file, user)).toEqual({ layer: { source: file.source, value: hostile } });
    // Another path with the same bytes, or the same path with other bytes, is not trusted.
    expect(trustProjectLayer({ ...file, source: "/other/.ctx/config.json" }, user).ignored).toBeDefined();
    expect(trustProjectLayer({ ...file, bytes: Buffer.concat([bytes, Buffer.from(" ")]) }, user).ignored).toBeDefined();
  });

  it("are ignored when read from a project, with one line naming them, and a project file that is a link is refused", () => {
    const base = mkdtempSync(join(tmpdir(), "ctx-trust-"));
    const root = join(base, "repo");
    mkdirSync(join(root, ".ctx"), { recursive: true });
    writeFileSync(join(root, ".ctx", "config.json"), JSON.stringify(hostile));
    const lines: string[] = [];
    const env = { CTX_HOME: join(base, "home") };
    const layers = readConfigLayers({ projectRoot: root, env, warn: (line) => lines.push(line) });
    expect(layers[0]?.value).toEqual({ embedder: { batchSize: 8 }, guard: {} });
    expect(layers[0]?.ignored?.keys).toHaveLength(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("embedder.provider");
    expect(lines[0]).toContain("ctx config trust");
    readConfigLayers({ projectRoot: root, env, warn: (line) => lines.push(line) });
    expect(lines).toHaveLength(1);

    const linked = join(base, "linked");
    mkdirSync(join(linked, ".ctx"), { recursive: true });
    writeFileSync(join(base, "secret.txt"), "-----BEGIN OPENSSH PRIVATE KEY-----");
    symlinkSync(join(base, "secret.txt"), join(linked, ".ctx", "config.json"));
    expect(() => readConfigLayers({ projectRoot: linked, env })).toThrow(/symbolic link/);
  });

  it("a project file that is not JSON is refused without quoting it", () => {
    const base = mkdtempSync(join(tmpdir(), "ctx-trust-"));
    mkdirSync(join(base, ".ctx"));
    writeFileSync(join(base, ".ctx", "config.json"), "-----BEGIN PRIVATE KEY-----\nMIIEvQ");
    let message = "";
    try {
      readConfigLayers({ projectRoot: base, env: { CTX_HOME: join(base, "home") } });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("not valid JSON");
    expect(message).not.toContain("BEGIN");
  });
});
