// The CtxError a call throws (or a promise rejects with), so a test can assert its code and message;
// anything else thrown, or nothing thrown, fails the test.
import { CtxError } from "../../src/errors.ts";

export function thrownCtxError(fn: () => unknown): CtxError {
  try {
    fn();
  } catch (error) {
    if (error instanceof CtxError) return error;
    throw error;
  }
  throw new Error("expected a CtxError, but nothing was thrown");
}

export async function rejectedCtxError(promise: Promise<unknown>): Promise<CtxError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CtxError) return error;
    throw error;
  }
  throw new Error("expected a CtxError, but the promise resolved");
}
