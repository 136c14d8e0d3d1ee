// The shared HTTP listener over real sockets: loopback unless told otherwise, a port taken or a host not of this
// machine said with the caller's hints, a trickling request cut off at the time limit, and close ending it all.
import { connect, createServer } from "node:net";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { rejectedCtxError } from "../../tests/helpers/ctx-error.ts";
import { type ListenHints, listenHttp } from "./listener.ts";

const hints: ListenHints = { addressInUse: "pick another port", other: "check the host" };
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const upApp = () => new Hono().get("/", (c) => c.text("up"));

describe("listenHttp", () => {
  it("listens on loopback when no host is named, on the port asked for (0 picks one), and closes", async () => {
    const http = await listenHttp(upApp(), { port: 0, hints });
    expect(http.host).toBe("127.0.0.1");
    expect(http.port).toBeGreaterThan(0);
    expect(await (await fetch(`http://127.0.0.1:${http.port}/`)).text()).toBe("up");
    await http.close();
    await expect(fetch(`http://127.0.0.1:${http.port}/`)).rejects.toThrow();
  });

  it("names a port that is taken, with the caller's hint", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    const port = (blocker.address() as { port: number }).port;
    const error = await rejectedCtxError(listenHttp(upApp(), { port, hints }));
    expect(error.code).toBe("USAGE");
    expect(error.message).toBe(`cannot listen on 127.0.0.1:${port} (EADDRINUSE)`);
    expect(error.hint).toBe("pick another port");
  });

  it("names a host that is not this machine's, with the caller's other hint", async () => {
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of this machine.
    const error = await rejectedCtxError(listenHttp(upApp(), { host: "192.0.2.1", port: 0, hints }));
    expect(error.message).toMatch(/^cannot listen on 192\.0\.2\.1:0 \(E[A-Z]+\)$/);
    expect(error.hint).toBe("check the host");
  });

  it("cuts off a request that is not whole within the time limit, and close ends open connections", async () => {
    const http = await listenHttp(upApp(), { port: 0, hints, requestTimeoutMs: 1_000 });
    cleanups.push(() => http.close());
    const trickler = connect(http.port, "127.0.0.1");
    let heard = "";
    trickler.on("data", (chunk) => (heard += chunk.toString("latin1")));
    // The head never ends: Node answers 408 once the limit passes, whatever the app would have done.
    trickler.write("POST / HTTP/1.1\r\nHost: x\r\n");
    await new Promise<void>((resolve) => trickler.on("close", () => resolve()));
    expect(heard).toMatch(/^HTTP\/1\.1 408 /);

    const idle = connect(http.port, "127.0.0.1");
    await new Promise<void>((resolve) => idle.on("connect", () => resolve()));
    const idleClosed = new Promise<void>((resolve) => idle.on("close", () => resolve()));
    await http.close();
    await idleClosed;
  });
});
