import { once } from "node:events";
import type { Server } from "node:http";
import type { Socket } from "node:net";
import { ExitCode, PkgError } from "@pkg/common";

export interface Listening {
  port: number;
  host: string;
  /** Stops accepting, destroys every open connection and waits for the server to close; idempotent. */
  close(): Promise<void>;
}

/** Binds a node:http(s) server to a fresh loopback port and keeps track of its sockets. */
export async function listenOnLoopback(server: Server): Promise<Listening> {
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  if (address === null || typeof address === "string") {
    throw new PkgError(ExitCode.Unavailable, "loopback listener has no port");
  }
  let closing: Promise<void> | undefined;
  return {
    port: address.port,
    host: `127.0.0.1:${address.port}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}
