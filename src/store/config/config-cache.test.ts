// The config cache: a config validated once is read back by the next process for the same layers, any change
// to a layer misses it, an invalid config is never kept, and a damaged or linked cache file is ignored.
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { configCachePath, loadCachedConfig } from "./config-cache.ts";

let home: string;
let project: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  const base = mkdtempSync(join(tmpdir(), "ctx-config-cache-"));
  home = join(base, "home", ".ctx");
  project = join(base, "repo");
  mkdirSync(join(project, ".ctx"), { recursive: true });
  env = { CTX_HOME: home };
});

const load = (extraEnv: NodeJS.ProcessEnv = {}) =>
  loadCachedConfig({ projectRoot: project, env: { ...env, ...extraEnv } });

describe("config cache", () => {
  it("keeps a validated config, 0600 in a 0700 folder, and the next process reads it instead of validating", async () => {
    writeFileSync(join(project, ".ctx", "config.json"), JSON.stringify({ checkpoints: { intervalMessages: 7 } }));
    expect((await load()).checkpoints.intervalMessages).toBe(7);
    const path = configCachePath(env);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(path, "..")).mode & 0o777).toBe(0o700);
    // Proof that it is read: plant a different config under the same key; a fresh cache object returns it.
    const entries = JSON.parse(readFileSync(path, "utf8"));
    entries[0].config.checkpoints.intervalMessages = 99;
    writeFileSync(path, JSON.stringify(entries));
    expect((await load()).checkpoints.intervalMessages).toBe(99);
  });

  it("misses on any change to a layer: a file edit or a CTX_* variable", async () => {
    const file = join(project, ".ctx", "config.json");
    writeFileSync(file, JSON.stringify({ checkpoints: { intervalMessages: 7 } }));
    expect((await load()).checkpoints.intervalMessages).toBe(7);
    writeFileSync(file, JSON.stringify({ checkpoints: { intervalMessages: 8 } }));
    expect((await load()).checkpoints.intervalMessages).toBe(8);
    expect((await load({ CTX_CHECKPOINTS__INTERVAL_MESSAGES: "9" })).checkpoints.intervalMessages).toBe(9);
    expect((await load()).checkpoints.intervalMessages).toBe(8);
  });

  it("never keeps an invalid config: it fails the same way every time", async () => {
    writeFileSync(join(project, ".ctx", "config.json"), JSON.stringify({ checkpoints: { intervalMessages: -1 } }));
    await expect(load()).rejects.toThrow(/intervalMessages/);
    await expect(load()).rejects.toThrow(/intervalMessages/);
    expect(() => lstatSync(configCachePath(env))).toThrow(/ENOENT/);
  });

  it("with no config file and no variable, neither reads nor writes a cache", async () => {
    expect((await load()).checkpoints.intervalMessages).toBe(20);
    expect(() => lstatSync(configCachePath(env))).toThrow(/ENOENT/);
  });

  it("ignores a damaged cache, and one that is a link, validating as usual", async () => {
    writeFileSync(join(project, ".ctx", "config.json"), JSON.stringify({ checkpoints: { intervalMessages: 7 } }));
    const path = configCachePath(env);
    mkdirSync(join(path, ".."), { recursive: true, mode: 0o700 });
    writeFileSync(path, "{ not json");
    expect((await load()).checkpoints.intervalMessages).toBe(7);
    const elsewhere = join(project, "planted.json");
    writeFileSync(elsewhere, JSON.stringify([{ key: "x", config: {} }]));
    const linked = join(home, "cache", "config.json.link");
    symlinkSync(elsewhere, linked);
    renameSync(linked, path); // the cache file is now a link to a file outside ctx's folder
    expect((await load()).checkpoints.intervalMessages).toBe(7);
    // Not written through either: the new cache replaced the link, the file it pointed to is untouched.
    expect(readFileSync(elsewhere, "utf8")).toBe(JSON.stringify([{ key: "x", config: {} }]));
    expect(lstatSync(path).isFile()).toBe(true);
  });
});
