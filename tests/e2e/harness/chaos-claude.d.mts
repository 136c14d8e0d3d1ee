// Types for chaos-claude.mjs (plain JavaScript: the stub Claude runs it without a build step).
export declare function chaosReplyText(id: string, index: number, total: number): string;
export declare function chaosAnswer(input: {
  prompt: string;
  sessionId: string;
  seed: string;
  env: NodeJS.ProcessEnv;
}): { text: string; usage: Record<string, number> };
