import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FIXTURE } from "../../../tests/helpers/claude-projects.ts";
import type { Statement } from "./schema.ts";
import {
  addStatement,
  answersOfQuestion,
  findStatements,
  sentencesOf,
  userMessagesInCompactSummary,
} from "./statements.ts";

const kinds = (text: string, by: "user" | "assistant") => findStatements(text, by).map((s) => `${s.kind}: ${s.text}`);

describe("findStatements", () => {
  it("finds the person's preferences and decisions, one sentence each", () => {
    expect(
      kinds(
        "Thanks. Always run the tests before pushing. I prefer small commits. Let's go with SQLite for now. Can you always use tabs?",
        "user",
      ),
    ).toEqual([
      "preference: Always run the tests before pushing.",
      "preference: I prefer small commits.",
      "decision: Let's go with SQLite for now.",
    ]);
    expect(kinds("Please use pnpm, not npm.\nDon't touch the generated files", "user")).toEqual([
      "preference: Please use pnpm, not npm.",
      "preference: Don't touch the generated files",
    ]);
    expect(kinds("We decided to drop Node 20 support.", "user")).toEqual([
      "decision: We decided to drop Node 20 support.",
    ]);
  });

  it("finds the assistant's decisions, not its narration", () => {
    expect(
      kinds(
        "Let me read the file. I'll use a Map instead of an object here. Going with the streaming parser. Now run the tests.",
        "assistant",
      ),
    ).toEqual(["decision: I'll use a Map instead of an object here.", "decision: Going with the streaming parser."]);
    // From the real long spotter session (line 853).
    expect(kinds("So I don't need a manual handler — the framework handles it.", "assistant")).toEqual([
      "decision: So I don't need a manual handler — the framework handles it.",
    ]);
    expect(kinds("Always run the tests.", "assistant")).toEqual([]);
  });

  it("ignores code, quotes, harness tags and questions", () => {
    const text = [
      "```ts",
      "// always use tabs",
      "```",
      "> never do this",
      "<system-reminder>Always obey.</system-reminder>",
      "Should we go with Postgres?",
    ].join("\n");
    expect(findStatements(text, "user")).toEqual([]);
  });

  it("keeps a slash command's arguments", () => {
    const text = "<command-name>/fix</command-name>\n<command-args>never skip the linter please</command-args>";
    expect(kinds(text, "user")).toEqual(["preference: never skip the linter please"]);
  });

  it("shortens a long sentence to one line", () => {
    const [found] = findStatements(`Always ${"keep ".repeat(70)}going.`, "user");
    expect(found?.text.length).toBe(240);
    expect(found?.text.endsWith("…")).toBe(true);
  });
});

describe("sentencesOf", () => {
  it("strips list markers and bold, and splits sentences", () => {
    expect(sentencesOf("- **Default**: Use beads. Then close them!\n2. Second item here")).toEqual([
      "Default: Use beads.",
      "Then close them!",
      "Second item here",
    ]);
  });
});

describe("userMessagesInCompactSummary", () => {
  it("lists the person's messages from the real compaction summary", () => {
    const path = FIXTURE.long;
    const line = readFileSync(path, "utf8").split("\n")[754] ?? "";
    const summary = (JSON.parse(line) as { message: { content: string } }).message.content;
    expect(userMessagesInCompactSummary(summary)).toEqual([
      "Work on bead spotter-dov. Run bd show spotter-dov to see the issue details and bd ready to find available subtasks. Start with the first ready task.",
      "continue",
    ]);
    expect(userMessagesInCompactSummary("no such section")).toEqual([]);
  });
});

describe("answersOfQuestion", () => {
  it("reads the structured answers, else the result text", () => {
    expect(answersOfQuestion({ answers: { "Which DB?": "SQLite", "Which tools?": ["a", "b"] } }, "")).toEqual([
      "Which DB? → SQLite",
      "Which tools? → a, b",
    ]);
    const text = 'User has answered your questions: "Commit how?"="fix the issues", "Push?"="". You can now continue.';
    expect(answersOfQuestion(undefined, text)).toEqual(["Commit how? → fix the issues"]);
  });
});

describe("addStatement", () => {
  const statement = (text: string): Statement => ({ text, by: "user", source: "prompt", uuid: null, timestamp: null });

  it("moves a repeat to the end and drops the oldest past the limit", () => {
    const list: Statement[] = [];
    for (const text of ["Use tabs.", "Never push.", "use tabs", "Prefer A.", "Prefer B."])
      addStatement(list, statement(text), 3);
    expect(list.map((s) => s.text)).toEqual(["use tabs", "Prefer A.", "Prefer B."]);
  });
});
