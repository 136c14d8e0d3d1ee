// ctx's one HTTP listener, for every service that serves a Hono app (the Synology Chat bridge; the `ctx ui` page):
// the app served on a host and port, loopback unless the caller names another host (SECURITY.md: nothing listens
// unless asked, and then on loopback by default), or an error that says why not (the port taken, no permission, a
// host not of this machine), with the caller's hints, since only it knows its flags and settings. Closing ends
// open connections too. A request must arrive whole within REQUEST_TIMEOUT_MS (headers within HEADERS_TIMEOUT_MS):
// a sender that trickles its body would otherwise hold its connection, and whatever the app keeps for it (the
// bridge's body slots), for Node's default 300 s.
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { Hono } from "hono";
import { CtxError, describeError } from "../errors.ts";

export interface HttpListener {
  /** The address listened on, as the socket reports it. */
  host: string;
  /** The port listened on (the one picked when 0 was asked for). */
  port: number;
  /** Stops listening and ends every open connection; resolves once the server is closed. */
  close(): Promise<void>;
}

/** What the person is told when the listener cannot start: each caller names its own flags and settings. */
export interface ListenHints {
  /** The port is taken (EADDRINUSE). */
  addressInUse: string;
  /** Listening there needs a privilege this process lacks (EACCES, EPERM: a port below 1024, say); else `other`. */
  permission?: string;
  /** Anything else (most often a host that is not an address of this machine). */
  other: string;
}

export interface ListenOptions {
  /** The address to listen on; LOOPBACK_HOST when not given. */
  host?: string;
  /** 0 picks a free port (HttpListener.port says which). */
  port: number;
  hints: ListenHints;
  /** How long a whole request may take (default REQUEST_TIMEOUT_MS); headers get at most HEADERS_TIMEOUT_MS of it. */
  requestTimeoutMs?: number;
}

/** Where ctx listens unless told otherwise: this machine only. */
export const LOOPBACK_HOST = "127.0.0.1";
/** Generous for a request of a few MiB on a LAN, short for a sender holding a connection open. */
export const REQUEST_TIMEOUT_MS = 30_000;
const HEADERS_TIMEOUT_MS = 10_000;

export async function listenHttp(app: Hono, options: ListenOptions): Promise<HttpListener> {
  const host = options.host ?? LOOPBACK_HOST;
  const { port } = options;
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
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
      hint: hintFor(code, options.hints),
      cause: error,
    });
  }
  const address = server.address() as AddressInfo;
  return {
    host: address.address,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}

function hintFor(code: string | undefined, hints: ListenHints): string {
  if (code === "EADDRINUSE") return hints.addressInUse;
  if (code === "EACCES" || code === "EPERM") return hints.permission ?? hints.other;
  return hints.other;
}
