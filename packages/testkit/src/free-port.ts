import { once } from "node:events";
import { createServer } from "node:net";
import { ExitCode, PkgError } from "@pkg/common";

/**
 * A loopback port that was free a moment ago. Another process can take it before the caller
 * binds it, so callers that hand it to a child process retry on "address already in use".
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  await once(server, "close");
  if (address === null || typeof address === "string") {
    throw new PkgError(ExitCode.Unavailable, "loopback listener has no port");
  }
  return address.port;
}
