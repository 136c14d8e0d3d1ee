// The terminal's question for this machine's checkout of a project (transplant/locate-checkout.ts CheckoutQuestion),
// asked by `ctx fork` for a teammate's session and `ctx import` for a bundle's, when none is found.
import type { Readable, Writable } from "node:stream";
import { sanitizeLogLine } from "../terminal-text.ts";
import type { CheckoutQuestion } from "../transplant/locate-checkout.ts";
import type { CliContext } from "./command-io.ts";

/** The terminal's question for the checkout's folder (@clack/prompts); null when the person cancels. */
export function askCheckoutOn(terminal: NonNullable<CliContext["terminal"]>): CheckoutQuestion {
  return async (project) => {
    const { isCancel, text } = await import("@clack/prompts");
    const answer = await text({
      input: terminal.input as Readable,
      output: terminal.output as Writable,
      message: sanitizeLogLine(`No checkout of ${project} found here. Its folder on this machine:`),
      placeholder: "/path/to/the/checkout",
    });
    return isCancel(answer) ? null : answer;
  };
}
