// Writes the wiring `pnpm build` makes from the hook table (src/core/setup/built-wiring.ts): build/wiring-files.ts runs it.
import { renderBuiltWiringFiles } from "../core/setup/built-wiring.ts";
import { writeRepositoryFiles } from "./repository-files.ts";

export async function writeBuiltWiringFiles(repoRoot: string): Promise<string[]> {
  const files = renderBuiltWiringFiles();
  return writeRepositoryFiles(repoRoot, files);
}
