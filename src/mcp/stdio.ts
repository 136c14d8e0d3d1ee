// The stdio entry of `ctx serve`: production deps, the SDK's stdio transport, and a promise that
// settles when the client goes away. stdout carries JSON-RPC only; logs go to stderr.
import type { Logger } from "../log.ts";
import { collectProjectStatus } from "../store/project-status.ts";
import { createServer } from "./server.ts";
import { LineTransport } from "./stdio-transport.ts";

export async function serveStdio(options: {
  version: string;
  projectRoot: string;
  logger: Logger;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
}): Promise<void> {
  const server = createServer({
    version: options.version,
    projectRoot: options.projectRoot,
    logger: options.logger,
    collectStatus: (root, recent) => collectProjectStatus(root, options.version, recent),
  });
  const transport = new LineTransport(options.stdin, options.stdout);
  transport.onerror = (error) => options.logger.warn(`stdio: ${error.message}`);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  options.logger.info(`serving project ${options.projectRoot} over stdio`);
  await closed;
  await server.close().catch(() => {});
}
