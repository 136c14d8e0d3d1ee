// `.ctx/sessions.ctx`: the sessions seen in a project, written by the SessionStart/SessionEnd hooks
// and read by `ctx status` and the `ctx_status` tool. LZ4: written on the hook path.
import { type SessionsFile, SessionsFileSchema } from "../core/sessions.ts";
import { projectPaths } from "./paths.ts";
import { readStateFile, updateStateFile } from "./state-file.ts";

export async function readSessionsSeen(projectRoot: string): Promise<SessionsFile | null> {
  return readStateFile(projectPaths(projectRoot).sessions, SessionsFileSchema);
}

export async function updateSessionsSeen(
  projectRoot: string,
  change: (current: SessionsFile | null) => SessionsFile,
): Promise<SessionsFile> {
  return updateStateFile(projectPaths(projectRoot).sessions, SessionsFileSchema, change, { codec: "lz4" });
}
