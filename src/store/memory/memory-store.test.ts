import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { claudeProjectDirName } from "../../config/claude-paths.ts";
import { defaultConfig } from "../../config/defaults.ts";
import { listMemoryTopics, type MemoryStoreOptions, memoryDirFor, writeMemory } from "./memory-store.ts";

let base: string;
let repo: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "ctx-memdir-"));
  repo = join(base, "my_repo");
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(join(repo, "src", "deep"), { recursive: true });
  env = { HOME: join(base, "home") };
});

describe("the auto-memory folder", () => {
  it("is Claude Code's own per repository: ~/.claude, or CLAUDE_CONFIG_DIR, /projects/<repo path>/memory", () => {
    const config = defaultConfig();
    const name = repo.replace(/[^a-zA-Z0-9]/g, "-");
    expect(memoryDirFor(repo, env, config)).toBe(join(base, "home", ".claude", "projects", name, "memory"));
    expect(memoryDirFor(join(repo, "src", "deep"), env, config)).toBe(
      join(base, "home", ".claude", "projects", name, "memory"),
    );
    const custom = { ...env, CLAUDE_CONFIG_DIR: join(base, "cc") };
    expect(memoryDirFor(repo, custom, config)).toBe(join(base, "cc", "projects", name, "memory"));
  });

  it("is shared by a git worktree with its main repository", () => {
    const worktree = join(base, "wt");
    mkdirSync(join(repo, ".git", "worktrees", "wt"), { recursive: true });
    mkdirSync(worktree);
    writeFileSync(join(worktree, ".git"), `gitdir: ${join(repo, ".git", "worktrees", "wt")}\n`);
    expect(memoryDirFor(worktree, env, defaultConfig())).toBe(memoryDirFor(repo, env, defaultConfig()));
  });

  it("follows Claude Code's autoMemoryDirectory setting, and ctx's memory.directory above all", () => {
    mkdirSync(join(repo, ".claude"));
    writeFileSync(join(repo, ".claude", "settings.local.json"), JSON.stringify({ autoMemoryDirectory: "~/notes/mem" }));
    expect(memoryDirFor(repo, env, defaultConfig())).toBe(join(base, "home", "notes", "mem"));
    const config = defaultConfig();
    config.memory.directory = "docs/memory";
    expect(memoryDirFor(repo, env, config)).toBe(join(repo, "docs", "memory"));
  });

  it("does not take autoMemoryDirectory from the repository's committed .claude/settings.json (as Claude Code)", () => {
    mkdirSync(join(repo, ".claude"));
    writeFileSync(join(repo, ".claude", "settings.json"), JSON.stringify({ autoMemoryDirectory: "~/.ssh" }));
    expect(memoryDirFor(repo, env, defaultConfig())).not.toContain(".ssh");
  });

  it("names a very long path's folder by a cut name plus a hash", () => {
    const long = `/${"a".repeat(250)}`;
    const name = claudeProjectDirName(long);
    expect(name).toMatch(/^-a{199}-[0-9a-f]{8}$/);
  });

  it("lists only topic files with valid frontmatter (the reader the session index uses)", async () => {
    const dir = join(base, "mem");
    mkdirSync(dir);
    writeFileSync(join(dir, "MEMORY.md"), "# Memory\n");
    writeFileSync(join(dir, "a.md"), "---\nname: A\ndescription: d\ntype: reference\n---\nbody\n");
    writeFileSync(join(dir, "notes.md"), "no frontmatter");
    writeFileSync(join(dir, "b.txt"), "---\nname: B\ndescription: d\ntype: user\n---\n");
    expect((await listMemoryTopics(dir)).map((topic) => topic.file)).toEqual(["a.md"]);
    expect(await listMemoryTopics(join(base, "missing"))).toEqual([]);
  });
});

describe("break 3: memory files through links that leave the memory folder", () => {
  let dir: string;
  let outside: string;
  let options: MemoryStoreOptions;
  const memory = { name: "retry policy", description: "how we retry", type: "project" as const, content: "3 times" };
  beforeEach(() => {
    dir = join(base, "mem");
    outside = join(base, "home");
    mkdirSync(dir);
    mkdirSync(outside);
    writeFileSync(join(outside, ".bashrc"), "export PATH\n");
    options = { dir, limits: { maxLines: 200, maxBytes: 25_000 }, allowlist: [], now: () => new Date(0) };
  });

  it("refuses a topic file that is a link out, naming it, with nothing written", async () => {
    symlinkSync(join(outside, ".bashrc"), join(dir, "retry_policy.md"));
    await expect(writeMemory(options, memory)).rejects.toMatchObject({
      code: "UNSAFE_PATH",
      message: expect.stringContaining(`retry_policy.md is a symbolic link to ${join(outside, ".bashrc")}`),
    });
    expect(readFileSync(join(outside, ".bashrc"), "utf8")).toBe("export PATH\n");
    expect(readdirSync(dir)).toEqual(["retry_policy.md"]);
  });

  it("refuses a MEMORY.md that is a link out before writing the topic file", async () => {
    symlinkSync(join(outside, ".bashrc"), join(dir, "MEMORY.md"));
    await expect(writeMemory(options, memory)).rejects.toMatchObject({ code: "UNSAFE_PATH" });
    expect(readdirSync(dir)).toEqual(["MEMORY.md"]);
    expect(readFileSync(join(outside, ".bashrc"), "utf8")).toBe("export PATH\n");
  });

  it("writes through a link that stays inside, keeping the link", async () => {
    mkdirSync(join(dir, "kept"));
    symlinkSync(join(dir, "kept", "MEMORY.md"), join(dir, "MEMORY.md"));
    await writeMemory(options, memory);
    expect(lstatSync(join(dir, "MEMORY.md")).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, "kept", "MEMORY.md"), "utf8")).toContain("retry_policy.md");
  });

  it("lists past a topic link leading out and a FIFO, without reading them or blocking", async () => {
    writeFileSync(join(outside, "secret.md"), "---\nname: S\ndescription: d\ntype: user\n---\nsecret\n");
    symlinkSync(join(outside, "secret.md"), join(dir, "secret.md"));
    execFileSync("mkfifo", [join(dir, "pipe.md")]);
    writeFileSync(join(dir, "a.md"), "---\nname: A\ndescription: d\ntype: reference\n---\nbody\n");
    expect((await listMemoryTopics(dir)).map((topic) => topic.file)).toEqual(["a.md"]);
  });
});
