// Auto-memory topic files in a temp Claude folder (`<claudeDir>/projects/<project>/memory/<file>`), in Claude
// Code's own format (src/core/memory/topics.ts), for the session index's "deep" layer tests.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type MemoryType, renderTopicFile } from "../../src/core/memory/topics.ts";

export interface TopicSpec {
  name: string;
  description: string;
  type?: MemoryType;
  content: string;
}

export function memoryFolder(claudeDir: string, project: string): string {
  return join(claudeDir, "projects", project, "memory");
}

/** Writes the topic file (its name from `file`) and returns its path. */
export function writeTopic(claudeDir: string, project: string, file: string, topic: TopicSpec): string {
  const dir = memoryFolder(claudeDir, project);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, file);
  const front = { name: topic.name, description: topic.description, type: topic.type ?? "project" };
  writeFileSync(path, renderTopicFile(front, topic.content));
  return path;
}
