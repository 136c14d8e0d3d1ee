import { describe, expect, it } from "vitest";
import { checkDailyCap, LEDGER_DAYS_KEPT, ledgerDay, ledgerRows, recordLedgerUsage, tokensUsedOn } from "./ledger.ts";

const day = "2026-11-22";

describe("the token ledger", () => {
  it("adds requests and tokens per day and provider/model, and sums a day over providers", () => {
    let ledger = recordLedgerUsage(null, {
      day,
      provider: "claude-cli",
      model: "haiku",
      requests: 1,
      inputTokens: 900,
      outputTokens: 100,
    });
    ledger = recordLedgerUsage(ledger, {
      day,
      provider: "claude-cli",
      model: "haiku",
      requests: 1,
      inputTokens: 50,
      outputTokens: 10,
    });
    ledger = recordLedgerUsage(ledger, { day, provider: "anthropic", model: "haiku", requests: 1, inputTokens: 40 });
    expect(ledger.days[day]?.["claude-cli/haiku"]).toEqual({
      requests: 2,
      inputTokens: 950,
      outputTokens: 110,
      refused: 0,
    });
    expect(tokensUsedOn(ledger, day)).toBe(1_100);
    expect(tokensUsedOn(ledger, "2026-11-21")).toBe(0);
    expect(ledgerRows(ledger).map((row) => `${row.provider}/${row.model}`)).toEqual([
      "anthropic/haiku",
      "claude-cli/haiku",
    ]);
  });

  it("allows a request only while used + wanted stays within the cap; a cap of 0 allows none", () => {
    const ledger = recordLedgerUsage(null, { day, provider: "p", model: "m", inputTokens: 900 });
    expect(checkDailyCap(ledger, day, 1_000, 100)).toMatchObject({ allowed: true, used: 900 });
    expect(checkDailyCap(ledger, day, 1_000, 101).allowed).toBe(false);
    expect(checkDailyCap(null, day, 0, 1).allowed).toBe(false);
  });

  it("keeps the newest days only, and never changes the ledger it was given", () => {
    let ledger = recordLedgerUsage(null, { day: "2020-01-01", provider: "p", model: "m", requests: 1 });
    const first = ledger;
    for (let i = 0; i < LEDGER_DAYS_KEPT; i += 1) {
      ledger = recordLedgerUsage(ledger, {
        day: ledgerDay(new Date(Date.UTC(2026, 0, 1 + i))),
        provider: "p",
        model: "m",
        requests: 1,
      });
    }
    expect(Object.keys(ledger.days)).toHaveLength(LEDGER_DAYS_KEPT);
    expect(ledger.days["2020-01-01"]).toBeUndefined();
    expect(Object.keys(first.days)).toEqual(["2020-01-01"]);
  });
});
