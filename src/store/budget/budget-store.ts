// `.ctx/budget.ctx`: the context budget's items (src/core/budget/compartments.ts). A container without compression (a
// few KB), replaced atomically under the file's lock so the MCP server and a hook never lose each other's
// change. A damaged file is an error naming it, never silently replaced: the items are the user's.
import { join } from "node:path";
import { projectPaths } from "../../config/paths.ts";
import { type BudgetFile, BudgetFileSchema, EMPTY_BUDGET } from "../../core/budget/compartments.ts";
import { ensureProjectCtxDir } from "../files/project-dir.ts";
import { readStateFile, updateStateFile } from "../files/state-file.ts";

export function budgetPath(projectRoot: string): string {
  return join(projectPaths(projectRoot).ctxDir, "budget.ctx");
}

export async function readBudget(projectRoot: string): Promise<BudgetFile> {
  return (await readStateFile(budgetPath(projectRoot), BudgetFileSchema)) ?? EMPTY_BUDGET;
}

/** Read-modify-write under the lock; `change` returns the new file and a result for the caller. */
export async function updateBudget<T>(
  projectRoot: string,
  change: (current: BudgetFile) => { file: BudgetFile; result: T },
): Promise<T> {
  await ensureProjectCtxDir(projectRoot);
  let result: T | undefined;
  await updateStateFile(
    budgetPath(projectRoot),
    BudgetFileSchema,
    (current) => {
      const next = change(current ?? EMPTY_BUDGET);
      result = next.result;
      return next.file;
    },
    { codec: "none" },
  );
  return result as T;
}
