// The one logger: everything diagnostic goes to stderr, never stdout (stdout carries JSON-RPC in
// `serve`, the hook reply in `hook`, and the command's result elsewhere). Level from CTX_LOG_LEVEL. Every line goes
// through sanitizeLogLine: a message quoting a transcript, a chat user or a path is one line, with no ESC in it.
import { sanitizeLogLine } from "./terminal-text.ts";

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export function parseLogLevel(value: string | undefined, fallback: LogLevel): LogLevel {
  if (value !== undefined && value in ORDER) return value as LogLevel;
  return fallback;
}

export function createLogger(options: { level: LogLevel; prefix?: string; write?: (line: string) => void }): Logger {
  const threshold = ORDER[options.level];
  const prefix = options.prefix ?? "ctx";
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const emit = (level: Exclude<LogLevel, "silent">, message: string) => {
    if (ORDER[level] >= threshold) write(sanitizeLogLine(`${prefix} ${level}: ${message}`));
  };
  return {
    debug: (message) => emit("debug", message),
    info: (message) => emit("info", message),
    warn: (message) => emit("warn", message),
    error: (message) => emit("error", message),
  };
}

export const silentLogger: Logger = createLogger({ level: "silent" });
