// Where an exchange too big for one chunk may be cut: between paragraphs, before and after fenced code blocks
// (a code block is one block, never cut), and, for prose that is still too long, between lines, then sentences,
// then words. Each block remembers the separator that preceded it so pieces rejoin into the original text.

import { estimateTokens } from "../estimate.ts";
import { FENCE_LINE } from "./languages.ts";

export interface Block {
  text: string;
  /** What stood between this block and the one before it ("\n\n" between paragraphs, "\n" at a fence). */
  separator: string;
  isCode: boolean;
}

/** Paragraphs and whole fenced code blocks, in order. */
export function splitBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let lines: string[] = [];
  let separator = "\n";
  let inFence = false;
  const close = (nextSeparator: string, isCode: boolean) => {
    if (lines.length > 0) blocks.push({ text: lines.join("\n"), separator, isCode });
    lines = [];
    separator = nextSeparator;
  };
  for (const line of text.split("\n")) {
    if (inFence) {
      lines.push(line);
      if (FENCE_LINE.test(line)) {
        inFence = false;
        close("\n", true);
      }
    } else if (FENCE_LINE.test(line)) {
      close("\n", false);
      inFence = true;
      lines.push(line);
    } else if (line.trim() === "") {
      close("\n\n", false);
    } else lines.push(line);
  }
  close("\n", inFence);
  return blocks;
}

/** A prose block cut into pieces of at most `targetTokens` (lines, then sentences, then words); code stays whole. */
export function splitLongProse(block: Block, targetTokens: number): Block[] {
  if (block.isCode || estimateTokens(block.text) <= targetTokens) return [block];
  const maxChars = targetTokens * 4;
  const pieces: Block[] = [];
  let current: string | null = null;
  let currentSeparator = block.separator;
  const add = (text: string, separator: string) => {
    if (current !== null && current.length + separator.length + text.length > maxChars) {
      pieces.push({ text: current, separator: currentSeparator, isCode: false });
      current = null;
    }
    if (current === null) {
      current = text;
      currentSeparator = pieces.length === 0 ? block.separator : separator;
    } else current += separator + text;
  };
  for (const line of block.text.split("\n")) {
    if (line.length <= maxChars) add(line, "\n");
    else for (const [index, part] of cutLine(line, maxChars).entries()) add(part, index === 0 ? "\n" : " ");
  }
  if (current !== null) pieces.push({ text: current, separator: currentSeparator, isCode: false });
  return pieces;
}

/** A line longer than `maxChars`: sentences, and a sentence still too long cut at the last space that fits. */
function cutLine(line: string, maxChars: number): string[] {
  const parts: string[] = [];
  for (const sentence of line.split(/(?<=[.!?])\s+/)) {
    let rest = sentence;
    while (rest.length > maxChars) {
      let cut = rest.lastIndexOf(" ", maxChars);
      if (cut <= 0) cut = maxChars;
      const code = rest.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
      parts.push(rest.slice(0, cut).trimEnd());
      rest = rest.slice(cut).trimStart();
    }
    if (rest !== "") parts.push(rest);
  }
  return parts;
}
