// The bridge's HTTP step: the webhook app served on the configured host and port (loopback by default), or an
// error that says why not (the port taken, a host not of this machine). Closing ends open connections too.
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { Hono } from "hono";
import { CtxError, describeError } from "../errors.ts";

export interface HttpListener {
  /** The port listened on (the one picked when 0 was asked for). */
  port: number;
  /** Stops listening and ends every open connection; resolves once the server is closed. */
  close(): Promise<void>;
}

export async function listenHttp(app: Hono, host: string, port: number): Promise<HttpListener> {
  const server = serve({ fetch: app.fetch, hostname: host, port });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("listening", resolve);
      server.once("error", reject);
    });
  } catch (error) {
    server.close();
    const code = (error as NodeJS.ErrnoException).code;
    throw new CtxError("USAGE", `cannot listen on ${host}:${port} (${code ?? describeError(error)})`, {
      hint: code === "EADDRINUSE" ? "another program uses that port: pick one with --port" : "check bridge.host",
      cause: error,
    });
  }
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}
