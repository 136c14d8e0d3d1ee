// The bridge's HTTP step: the webhook app served on the configured host and port (loopback by default), or an
// error that says why not (the port taken, a host not of this machine). Closing ends open connections too.
// A request must arrive whole within REQUEST_TIMEOUT_MS (headers within HEADERS_TIMEOUT_MS): a sender that
// trickles its body would otherwise hold one of the bodies-in-flight slots (app.ts) for Node's default 300 s.
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

/** Synology posts at most a few MiB on a LAN: 30 s is generous for a whole request. */
export const REQUEST_TIMEOUT_MS = 30_000;
const HEADERS_TIMEOUT_MS = 10_000;

export async function listenHttp(
  app: Hono,
  host: string,
  port: number,
  limits: { requestTimeoutMs?: number } = {},
): Promise<HttpListener> {
  const requestTimeout = limits.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const server = serve({
    fetch: app.fetch,
    hostname: host,
    port,
    serverOptions: {
      requestTimeout,
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
      // How often Node looks for requests past those limits (30 s by default, as long as the limit itself).
      connectionsCheckingInterval: Math.min(1_000, requestTimeout),
    },
  });
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
