import { describe, expect, it } from "vitest";
import {
  applyLibraryChange,
  describeAnnotation,
  isEmptyAnnotation,
  MAX_LABELS,
  MAX_NOTE_BYTES,
  matchesAnnotationFilter,
  normalizeLabel,
  normalizeLabels,
} from "./annotation.ts";
import { prepareNote } from "./note.ts";

describe("labels", () => {
  it("are trimmed, lowercased, deduplicated and sorted", () => {
    expect(normalizeLabels(["  Auth ", "db", "AUTH", "payments-v2"])).toEqual(["auth", "db", "payments-v2"]);
  });

  it("refuse escapes, newlines, spaces, commas, emptiness and length with a short line", () => {
    expect(() => normalizeLabel("\u001b[31mred")).toThrow(/control character/);
    expect(() => normalizeLabel("a\nb")).toThrow(/control character/);
    expect(() => normalizeLabel("two words")).toThrow(/not one word/);
    expect(() => normalizeLabel("a,b")).toThrow(/not one word/);
    expect(() => normalizeLabel("   ")).toThrow(/empty/);
    expect(() => normalizeLabel("x".repeat(41))).toThrow(/longer than 40/);
    const huge = "x".repeat(1_000_000);
    let message = "";
    try {
      normalizeLabel(huge);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/at most 40 characters/);
    expect(message.length).toBeLessThan(200);
  });
});

describe("notes", () => {
  it("are redacted before they are kept", () => {
    const prepared = prepareNote("  fixed with key AKIAIOSFODNN7EXAMPLE in staging ");
    expect(prepared.note).not.toContain("AKIAIOSFODNN7EXAMPLE");
    expect(prepared.note.startsWith("fixed with key")).toBe(true);
    expect(prepared.redactions).toBeGreaterThan(0);
  });

  it("refuse a 1 MB note, a multi-line note and an escape sequence", () => {
    expect(() => prepareNote("n".repeat(1_000_000))).toThrow(/at most 4096 bytes/);
    expect(() => prepareNote("é".repeat(MAX_NOTE_BYTES / 2 + 1))).toThrow(/at most 4096 bytes/);
    expect(() => prepareNote("line one\nline two")).toThrow(/one line/);
    expect(() => prepareNote("\u001b]52;c;aGk=\u0007")).toThrow(/control character/);
    expect(() => prepareNote("  ")).toThrow(/empty/);
    expect(prepareNote("é".repeat(MAX_NOTE_BYTES / 2)).note).toHaveLength(MAX_NOTE_BYTES / 2);
  });
});

describe("changes", () => {
  it("star, tag, untag, note and clear one annotation", () => {
    let a = applyLibraryChange(null, { op: "star" });
    a = applyLibraryChange(a, { op: "tag", labels: ["db", "auth"] });
    a = applyLibraryChange(a, { op: "tag", labels: ["auth"] });
    expect(a).toEqual({ starred: true, labels: ["auth", "db"], note: null });
    a = applyLibraryChange(a, { op: "note", note: "use the retry" });
    a = applyLibraryChange(a, { op: "untag", labels: ["db", "absent"] });
    a = applyLibraryChange(a, { op: "unstar" });
    expect(a).toEqual({ starred: false, labels: ["auth"], note: "use the retry" });
    a = applyLibraryChange(applyLibraryChange(a, { op: "note", note: null }), { op: "untag", labels: ["auth"] });
    expect(isEmptyAnnotation(a)).toBe(true);
  });

  it("refuse more than MAX_LABELS tags", () => {
    const many = Array.from({ length: MAX_LABELS + 1 }, (_, i) => `t${i}`);
    expect(() => applyLibraryChange(null, { op: "tag", labels: many })).toThrow(/at most 20 tags/);
  });
});

describe("filters and text", () => {
  const a = { starred: true, labels: ["auth", "db"], note: "n" };
  it("keep only what every named label and the star match", () => {
    expect(matchesAnnotationFilter(undefined, {})).toBe(true);
    expect(matchesAnnotationFilter(undefined, { starred: true })).toBe(false);
    expect(matchesAnnotationFilter(a, { starred: true, labels: ["auth", "db"] })).toBe(true);
    expect(matchesAnnotationFilter(a, { labels: ["auth", "ui"] })).toBe(false);
    expect(matchesAnnotationFilter({ ...a, starred: false }, { starred: true })).toBe(false);
  });

  it("says what there is, and nothing for an empty annotation", () => {
    expect(describeAnnotation(a)).toBe("★ starred · tags: auth, db · note: n");
    expect(describeAnnotation({ starred: false, labels: [], note: null })).toBeNull();
  });
});
