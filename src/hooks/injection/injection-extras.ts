// What the compact re-injection carries besides the saved state: the CLAUDE.md rules marked (ENFORCED) or
// (CRITICAL) (redacted like everything ctx injects) and the context budget. Neither may stop the
// re-injection: a damaged budget file or an unreadable CLAUDE.md is logged and left out.
import { redactText } from "../../core/redact/redact.ts";
import { renderRulesBlock } from "../../core/rules/check.ts";
import { describeError } from "../../errors.ts";
import { readBudget } from "../../store/budget/budget-store.ts";
import { discoverClaudeMdRules } from "../../store/rules/claude-md.ts";
import type { HookDeps } from "../runtime/types.ts";
import type { InjectionExtras } from "./context-injection.ts";

export async function gatherInjectionExtras(deps: HookDeps): Promise<InjectionExtras> {
  const { config } = deps;
  let rulesText = "";
  if (config.rules.reinject) {
    try {
      const rules = discoverClaudeMdRules(deps.projectRoot, deps.env).rules;
      rulesText = redactText(renderRulesBlock(rules), { allowlist: config.redaction.allowlist }).text;
    } catch (error) {
      deps.logger.warn(`CLAUDE.md rules left out of the re-injection: ${describeError(error)}`);
    }
  }
  let budget = null;
  if (config.budget.injectMaxTokens > 0) {
    budget = await readBudget(deps.projectRoot).catch((error: unknown) => {
      deps.logger.warn(`the context budget is left out of the re-injection: ${describeError(error)}`);
      return null;
    });
  }
  return { rulesText, budget, budgetMaxTokens: config.budget.injectMaxTokens };
}
