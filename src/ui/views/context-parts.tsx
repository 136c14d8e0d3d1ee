// The context page's parts that show the person's and the summary's own words: what each compaction audit found
// (store/audit), the budget's items (store/budget) and the CLAUDE.md rules (store/rules). All of it is text from
// transcripts and files: rendered as text by Hono JSX, never as markup.

import { countFates } from "../../core/audit/compaction-audit.ts";
import type { AuditItem, CompactionAudit } from "../../core/audit/compaction-audit-schema.ts";
import type { Cascade } from "../../core/rules/claude-md.ts";
import type { BudgetListing } from "../../store/budget/operations.ts";
import { TableHead } from "./table-head.tsx";
import { clipLine, sessionHref, shortDate } from "./text.ts";

/** Characters of an item, a rule or a budget entry shown (the page is an overview; the CLI shows them whole). */
const ITEM_CHARS = 300;

export function AuditsPart({ audits, unreadable }: { audits: CompactionAudit[]; unreadable: number }) {
  return (
    <>
      {audits.length === 0 ? <p class="view-empty">No compaction audited yet.</p> : null}
      {audits.map((audit) => {
        const counts = countFates(audit.items);
        return (
          <details class={`audit${counts.lost > 0 ? " audit-lost" : ""}`} open={counts.lost > 0}>
            <summary>
              {shortDate(audit.at)} · <a href={sessionHref(audit.sessionId)}>{audit.sessionId.slice(0, 8)}</a> ·{" "}
              <span class="fate-kept">{counts.kept} kept</span> ·{" "}
              <span class="fate-paraphrased">{counts.paraphrased} paraphrased</span> ·{" "}
              <span class="fate-lost">{counts.lost} lost</span>
            </summary>
            <AuditItems items={audit.items.filter((item) => item.fate === "lost")} fate="lost" />
            <AuditItems items={audit.items.filter((item) => item.fate === "paraphrased")} fate="paraphrased" />
            <AuditItems items={audit.items.filter((item) => item.fate === "kept")} fate="kept" />
          </details>
        );
      })}
      {unreadable > 0 ? (
        <p class="view-notice">{unreadable} audit file(s) could not be read and are left out.</p>
      ) : null}
    </>
  );
}

function AuditItems({ items, fate }: { items: AuditItem[]; fate: AuditItem["fate"] }) {
  if (items.length === 0) return null;
  return (
    <ul class={`audit-items fate-${fate}`} aria-label={fate}>
      {items.map((item) => (
        <li>
          <span class="badge">{item.kind}</span> {clipLine(item.text, ITEM_CHARS)}
        </li>
      ))}
    </ul>
  );
}

export function BudgetPart({ items, compartments }: BudgetListing) {
  return (
    <>
      <div class="table-wrap">
        <table class="view-table budget">
          <TableHead
            columns={[
              "compartment",
              { numeric: "items" },
              { numeric: "pinned" },
              { numeric: "tokens" },
              { numeric: "cap" },
            ]}
          />
          <tbody>
            {compartments.map((usage) => (
              <tr class={usage.tokens > usage.cap ? "over-cap" : undefined}>
                <td>{usage.compartment}</td>
                <td class="num">{usage.items}</td>
                <td class="num">{usage.pinned}</td>
                <td class="num">{usage.tokens}</td>
                <td class="num">{usage.cap}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {items.length === 0 ? (
        <p class="view-empty">The budget is empty (ctx budget add, or ctx_budget in Claude Code, fills it).</p>
      ) : (
        <ul class="budget-items">
          {items.map((item) => (
            <li>
              <code>{item.id}</code> <span class="badge">{item.compartment}</span>
              {item.pinned ? <span class="badge">pinned</span> : null} {clipLine(item.text, ITEM_CHARS)}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export function RulesPart({ cascade }: { cascade: Cascade }) {
  return (
    <>
      <p>
        {cascade.rules.length} rule(s) marked (ENFORCED) or (CRITICAL) in {cascade.files.length} CLAUDE.md file(s),
        re-injected after each compaction.
      </p>
      {cascade.rules.length === 0 ? null : (
        <ul class="rules">
          {cascade.rules.map((rule) => (
            <li>
              <span class={`badge marker-${rule.marker.toLowerCase()}`}>{rule.marker}</span>{" "}
              {clipLine(rule.text, ITEM_CHARS)}{" "}
              <small class="rule-source">
                {rule.source}:{rule.line}
              </small>
            </li>
          ))}
        </ul>
      )}
      {cascade.skipped.map((skip) => (
        <p class="view-notice">
          Import not followed: {skip.target} from {skip.from} ({skip.reason})
        </p>
      ))}
    </>
  );
}
