import { describe, expect, it } from "vitest";
import { checkTranscriptArchive } from "./doctor-archive.ts";

const facts = {
  cleanupPeriodDays: 14,
  cleanupPeriodSource: "/p/.claude/settings.json",
  enabled: true,
  daysBeforeCleanup: 7,
  maxAgeDays: 365,
  sessions: 3,
  bytes: 3 * 1024 * 1024,
  lastRun: "2026-11-24T10:00:00.000Z",
};

describe("doctor: cleanup period and archive", () => {
  it("reports the period with its source and the archive's size", () => {
    const finding = checkTranscriptArchive(facts);
    expect(finding.status).toBe("ok");
    expect(finding.message).toContain("14 day(s) after their last write (cleanupPeriodDays, /p/.claude/settings.json)");
    expect(finding.message).toContain("3 session(s), 3.0 MiB in the archive (last pass 2026-11-24T10:00:00.000Z)");
    expect(finding.message).toContain(
      "keeps them, unredacted, for 365 day(s) after their last write (archive.maxAgeDays)",
    );
    expect(checkTranscriptArchive({ ...facts, maxAgeDays: 0 }).message).toContain("unredacted, forever");
  });

  it("warns when the archive is off", () => {
    const finding = checkTranscriptArchive({ ...facts, enabled: false, cleanupPeriodSource: "default" });
    expect(finding.status).toBe("warn");
    expect(finding.message).toContain("(cleanupPeriodDays, the default)");
    expect(finding.fix).toContain("archive.enabled");
  });
});
