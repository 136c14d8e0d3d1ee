// Exclusions read from a query, and the dashes of code queries that must stay words: flags, hyphenated names, CSS
// prefixes, command lines.
import { describe, expect, it } from "vitest";
import { exclusionPhrase, mentionsExcluded, parseQueryNegation } from "./query-negation.ts";

describe("parseQueryNegation", () => {
  it('reads -word, -"a phrase", not about, without, except and excluding', () => {
    expect(parseQueryNegation("-kubernetes docker networking")).toEqual({
      excluded: ["kubernetes"],
      text: "docker networking",
    });
    expect(parseQueryNegation('redis -"connection pool" timeouts')).toEqual({
      excluded: ["connection pool"],
      text: "redis timeouts",
    });
    expect(parseQueryNegation("auth bug not about oauth")).toEqual({ excluded: ["oauth"], text: "auth bug" });
    expect(parseQueryNegation("deploy without docker compose, the ssh one")).toEqual({
      excluded: ["docker compose"],
      text: "deploy , the ssh one",
    });
    expect(parseQueryNegation("migrations except for sqlite and the indexes")).toEqual({
      excluded: ["sqlite"],
      text: "migrations and the indexes",
    });
    expect(parseQueryNegation('search excluding "team server"')).toEqual({ excluded: ["team server"], text: "search" });
    // docker's flags are letters (`-it`) or take two dashes: a word after it is an exclusion.
    expect(parseQueryNegation("docker networking -kubernetes")).toMatchObject({ excluded: ["kubernetes"] });
    expect(parseQueryNegation("css layout -tailwind -bootstrap")).toEqual({
      excluded: ["tailwind", "bootstrap"],
      text: "css layout",
    });
  });

  it("leaves the dashes of code queries alone", () => {
    for (const query of [
      "re-index the sessions with --force",
      "ctx-hook crashes on pre-compact",
      "pnpm install -p 3 --frozen-lockfile",
      "rm -rf node_modules and reinstall",
      "tar -xzf node-v22.tar.gz",
      "curl -fsSL https://get.pnpm.io",
      "go test -race ./...",
      "java -version says 17",
      "go test -count 1",
      "ps -aux | grep node",
      "find . -name '*.ts' -exec grep -l foo",
      "use -webkit-appearance none on the select",
      "what does the -exec option do",
      "java -Dkey=value startup",
      "an offset of -1 in the loop",
      "docker run -it --rm ubuntu",
      "the --since flag",
      "a-b testing",
      "x -- y",
      "-",
      "-- -",
    ]) {
      expect(parseQueryNegation(query), query).toEqual({ excluded: [], text: query });
    }
  });

  it("keeps without and except in a question, where they are what is asked", () => {
    const question = "How did John feel after being able to jog without pain?";
    expect(parseQueryNegation(question)).toEqual({ excluded: [], text: question });
    expect(parseQueryNegation("sessions not about billing?")).toEqual({ excluded: ["billing"], text: "sessions ?" });
  });

  it("stops an exclusion at a joining word and takes at most three words", () => {
    expect(parseQueryNegation("without docker compose files here today").excluded).toEqual(["docker compose files"]);
    expect(parseQueryNegation("without tests for the parser").excluded).toEqual(["tests"]);
    // Nothing after the word: no exclusion.
    expect(parseQueryNegation("works without").excluded).toEqual([]);
    expect(parseQueryNegation('-"" x')).toEqual({ excluded: [], text: '-"" x' });
  });

  it("turns an exclusion into an FTS5 phrase through the index's tokenizer, never into FTS5 syntax", () => {
    expect(exclusionPhrase("Docker Compose")).toBe('"docker compos"');
    expect(exclusionPhrase('NEAR(a b) OR "x"')).toBe('"near a b or x"');
    expect(exclusionPhrase("  ...  ")).toBeNull();
  });

  it("finds an excluded phrase in a text by tokens, in order", () => {
    expect(mentionsExcluded("We set up Docker Compose today", ["docker compose"])).toBe(true);
    expect(mentionsExcluded("compose the docker file", ["docker compose"])).toBe(false);
    // Stemmed as the index stems: "dockerized" is "docker", "dockerfile" is another word.
    expect(mentionsExcluded("dockerized", ["docker"])).toBe(true);
    expect(mentionsExcluded("the dockerfile", ["docker"])).toBe(false);
    expect(mentionsExcluded("anything", [])).toBe(false);
  });
});
