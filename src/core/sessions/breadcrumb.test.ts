import { describe, expect, it } from "vitest";
import { breadcrumbLine, dailyNoteName, insertUnderHeading } from "./breadcrumb.ts";

const line = "- 10:05 **repo** — Fix retries (session `s1`)";

describe("session breadcrumb", () => {
  it("names the daily note by local date and writes one line with time, project, title and session", () => {
    const at = new Date("2026-11-22T10:05:00Z"); // tests run with TZ=UTC
    expect(dailyNoteName(at)).toBe("2026-11-22.md");
    expect(breadcrumbLine({ at, project: "repo", sessionId: "s1", title: " Fix\nretries " })).toBe(line);
    expect(breadcrumbLine({ at, project: "repo", sessionId: "s1", title: null })).toBe(
      "- 10:05 **repo** (session `s1`)",
    );
    expect(breadcrumbLine({ at, project: "r", sessionId: "s", title: "x".repeat(300) })).toContain(
      `${"x".repeat(139)}…`,
    );
  });

  it("creates the heading in an empty or headingless note", () => {
    expect(insertUnderHeading("", "## Sessions", line)).toBe(`## Sessions\n${line}\n`);
    expect(insertUnderHeading("Morning notes\n", "## Sessions", line)).toBe(`Morning notes\n\n## Sessions\n${line}\n`);
  });

  it("inserts at the end of the heading's section, before the next heading of its level or higher", () => {
    const note = [
      "# 2026-11-22",
      "## Sessions",
      "- 09:00 **repo** — earlier (session `s0`)",
      "### Details",
      "nested under sessions",
      "",
      "## Tasks",
      "- [ ] call Bob",
      "",
    ].join("\n");
    expect(insertUnderHeading(note, "## Sessions", line).split("\n")).toEqual([
      "# 2026-11-22",
      "## Sessions",
      "- 09:00 **repo** — earlier (session `s0`)",
      "### Details",
      "nested under sessions",
      line,
      "",
      "## Tasks",
      "- [ ] call Bob",
      "",
    ]);
  });

  it("appends to a heading that ends the note, keeping CRLF notes readable", () => {
    expect(insertUnderHeading("## Sessions\r\n- a\r\n\r\n", "## Sessions", line)).toBe(`## Sessions\n- a\n${line}\n\n`);
  });
});
