import { describe, expect, it } from "vitest";
import { createLogger } from "./log.ts";

describe("createLogger", () => {
  it("writes each message as one sanitized line (break 4): no ESC, no line of its own slipped in", () => {
    const lines: string[] = [];
    const logger = createLogger({ level: "info", write: (line) => lines.push(line) });
    const esc = String.fromCharCode(0x1b);
    logger.warn(`user ${esc}]52;c;aGk=${esc}\\ said\nctx error: forged`);
    expect(lines).toEqual(["ctx warn: user \\u001b]52;c;aGk=\\u001b\\ said\\nctx error: forged"]);
  });

  it("keeps the level threshold", () => {
    const lines: string[] = [];
    const logger = createLogger({ level: "warn", prefix: "ctx hook", write: (line) => lines.push(line) });
    logger.info("hidden");
    logger.error("shown");
    expect(lines).toEqual(["ctx hook error: shown"]);
  });
});
