import { mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { addToLedger, ledgerPath, loadLedger, readLedger, reserveTokens } from "./ledger-store.ts";

const NOW = new Date("2026-11-22T09:30:00.000Z");
const booking = {
  day: "2026-11-22",
  provider: "claude-cli",
  model: "haiku",
  inputTokens: 600,
  outputTokens: 400,
  cap: 1_500,
};

describe("the ledger file", () => {
  it("lives in CTX_HOME as readable JSON (0600) and books a reservation only while it fits the cap", async () => {
    const env = { CTX_HOME: mkdtempSync(join(tmpdir(), "ctx-ledger-")) };
    const path = ledgerPath(env);
    expect(path).toBe(join(env.CTX_HOME, "summaries-ledger.json"));
    expect((await reserveTokens(path, booking, NOW)).allowed).toBe(true);
    const second = await reserveTokens(path, booking, NOW);
    expect(second).toMatchObject({ allowed: false, used: 1_000, cap: 1_500, wanted: 1_000 });
    await addToLedger(
      path,
      { day: "2026-11-22", provider: "claude-cli", model: "haiku", inputTokens: -100, outputTokens: -350 },
      NOW,
    );
    expect((await readLedger(path))?.days["2026-11-22"]?.["claude-cli/haiku"]).toEqual({
      requests: 1,
      inputTokens: 500,
      outputTokens: 50,
      refused: 1,
    });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("a damaged ledger is moved aside and started afresh", async () => {
    const home = mkdtempSync(join(tmpdir(), "ctx-ledger-"));
    const path = ledgerPath({ CTX_HOME: home });
    writeFileSync(path, "{ not json");
    const read = await loadLedger(path, NOW);
    expect(read.ledger).toBeNull();
    expect(read.movedAside).toMatch(/summaries-ledger\.json\.corrupt-2026-11-22T09-30-00-000Z$/);
    expect(readdirSync(home).sort()).toEqual(["summaries-ledger.json.corrupt-2026-11-22T09-30-00-000Z"]);
    expect((await reserveTokens(path, booking, NOW)).allowed).toBe(true);
  });
});
