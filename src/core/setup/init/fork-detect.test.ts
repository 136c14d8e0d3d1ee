import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isUnmodifiedCtxFile, renderForkDetectCommand } from "./fork-detect.ts";

describe("/fork-detect command", () => {
  const content = renderForkDetectCommand();

  it("has the frontmatter Claude Code reads and passes the arguments as the query", () => {
    const front = content.split("---\n")[1] ?? "";
    expect(front).toMatch(/^description: .+$/m);
    expect(front).toMatch(/^argument-hint: .+$/m);
    expect(front).toMatch(
      /^allowed-tools: mcp__ctx__ctx_fork_detect, mcp__plugin_ctx_ctx__ctx_fork_detect, AskUserQuestion$/m,
    );
    expect(content).toContain("None - start fresh");
    expect(content).toContain("$ARGUMENTS");
    expect(content).toContain("fork command");
  });

  it("recognises its own unmodified output, including an earlier version's", () => {
    expect(isUnmodifiedCtxFile(content)).toBe(true);
    expect(isUnmodifiedCtxFile(content.replace(/\n/g, "\r\n"))).toBe(true);
  });

  it("sees an edit by the person and a file ctx never wrote", () => {
    expect(isUnmodifiedCtxFile(content.replace("numbered list", "table"))).toBe(false);
    expect(isUnmodifiedCtxFile("---\ndescription: mine\n---\nhello\n")).toBe(false);
  });
});

/** What an earlier ctx version would have written: a different body with its own valid hash line. */
function earlierVersionOf(content: string): string {
  const body = content.replace("numbered list", "short list").replace(/^# ctx-generated sha256:.*\n/m, "");
  const hash = createHash("sha256").update(body).digest("hex").slice(0, 16);
  return body.replace("\n---\n", `\n# ctx-generated sha256:${hash}\n---\n`);
}

describe("earlier versions", () => {
  it("counts a different file with a valid hash line as ctx's own", () => {
    const earlier = earlierVersionOf(renderForkDetectCommand());
    expect(earlier).not.toBe(renderForkDetectCommand());
    expect(isUnmodifiedCtxFile(earlier)).toBe(true);
  });
});
