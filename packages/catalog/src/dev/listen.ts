import type { Server } from "node:http";
import { ExitCode, PkgError } from "@pkg/common";

export const defaultDevPort = 4321;

/**
 * Binds `server`: an explicit port must be free (else exit 69 naming it); without one the default
 * port is tried, then any free port. Returns the bound port.
 */
export async function listenForDev(server: Server, host: string, port: number | undefined): Promise<number> {
  try {
    return await listenOnce(server, host, port ?? defaultDevPort);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (port === undefined && code === "EADDRINUSE") return listenOnce(server, host, 0);
    if (code === "EADDRINUSE") {
      throw new PkgError(
        ExitCode.Unavailable,
        `port ${port} on ${host} is already in use; pick another --port`,
      );
    }
    if (code === "EADDRNOTAVAIL" || code === "EACCES" || code === "ENOTFOUND") {
      throw new PkgError(ExitCode.Unavailable, `cannot listen on ${host}:${port ?? defaultDevPort}: ${code}`);
    }
    throw error;
  }
}

function listenOnce(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      server.off("listening", onListening);
      reject(error);
    };
    const onListening = () => {
      server.off("error", onError);
      const address = server.address();
      resolve(typeof address === "object" && address !== null ? address.port : port);
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
}
