import { describe, expect, it } from "vitest";
import { buildDoctorReport, fail, formatDoctorReport, ok, warn } from "./doctor-report.ts";

describe("doctor report", () => {
  it("is ok with warnings, not ok with a failure", () => {
    expect(buildDoctorReport([ok("a", "fine"), warn("b", "meh", "do b")]).ok).toBe(true);
    expect(buildDoctorReport([ok("a", "fine"), fail("c", "broken", "do c")]).ok).toBe(false);
  });

  it("prints a checklist with a fix under each problem", () => {
    const text = formatDoctorReport(
      buildDoctorReport([ok("a", "fine"), warn("b", "meh", "do b"), fail("c", "broken", "do c")]),
      "/p",
    );
    expect(text).toBe(
      "ctx doctor: /p\n\n✓ fine\n! meh\n    fix: do b\n✗ broken\n    fix: do c\n\n1 problem(s), 1 warning(s).\n",
    );
  });
});
