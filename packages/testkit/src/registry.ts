import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { stopChild } from "./child-process.js";
import { htpasswdLine } from "./htpasswd.js";
import type { RecordedRequest } from "./recorded-request.js";
import type { RegistryAuthConfig } from "./registry-config.js";
import { launchRegistry } from "./registry-process.js";
import { type RegistryUser, registryUser } from "./registry-user.js";
import { tempDir } from "./temp-dir.js";
import type { TestCa } from "./test-ca.js";
import { startTokenServer, type TokenServer } from "./token-server.js";

export type RegistryAuth = "none" | "basic" | "token";

export interface RunningRegistry {
  /** `127.0.0.1:PORT`, the authority used in image references. */
  host: string;
  /** `http://127.0.0.1:PORT`, or https when started with a CA. */
  url: string;
  auth: RegistryAuth;
  /** The valid credential for the basic and token flavours. */
  user?: RegistryUser;
  storageDir: string;
  pid: number;
  /** The registry's own log (level warn). */
  logPath: string;
  /** Requests the token server received (token flavour; empty otherwise). */
  tokenRequests: RecordedRequest[];
  /** The token server's realm URL and the service name tokens are issued for (token flavour). */
  tokenRealm?: string;
  tokenService?: string;
  /** Kills the registry by PID, waits for it to exit, stops the token server and removes temp dirs; idempotent. */
  stop(): Promise<void>;
}

const TOKEN_SERVICE = "pkg-test-registry";
const TOKEN_ISSUER = "pkg-testkit-token-server";

/** A CNCF distribution registry on a free loopback port, with temporary storage, in one of three auth flavours. */
export async function startRegistry(
  options: { auth?: RegistryAuth; tls?: TestCa; user?: RegistryUser } = {},
): Promise<RunningRegistry> {
  const auth = options.auth ?? "none";
  const user = auth === "none" ? undefined : registryUser(options.user);
  const dir = await tempDir("registry-");
  let tokenServer: TokenServer | undefined;
  const cleanUp = async () => {
    await tokenServer?.stop();
    await dir.remove();
  };
  try {
    const storageDir = join(dir.path, "storage");
    await mkdir(storageDir);
    let authConfig: RegistryAuthConfig = { kind: "none" };
    if (auth === "basic" && user) {
      const path = join(dir.path, "htpasswd");
      await writeFile(path, `${htpasswdLine(user)}\n`);
      authConfig = { kind: "htpasswd", path };
    } else if (auth === "token" && user) {
      tokenServer = await startTokenServer({
        dir: dir.path,
        user,
        service: TOKEN_SERVICE,
        issuer: TOKEN_ISSUER,
        tls: options.tls,
      });
      authConfig = {
        kind: "token",
        realm: tokenServer.realm,
        service: TOKEN_SERVICE,
        issuer: TOKEN_ISSUER,
        rootCertBundle: tokenServer.rootCertPath,
      };
    }
    const cert = options.tls ? await options.tls.issue([]) : undefined;
    const tls = cert && options.tls ? { ...cert, caPem: options.tls.certPem } : undefined;
    const registry = await launchRegistry({ dir: dir.path, tls, config: { storageDir, auth: authConfig } });
    let stopping: Promise<void> | undefined;
    const host = `127.0.0.1:${registry.port}`;
    return {
      host,
      url: `${tls ? "https" : "http"}://${host}`,
      auth,
      user,
      storageDir,
      pid: registry.pid,
      logPath: registry.logPath,
      tokenRequests: tokenServer?.requests ?? [],
      tokenRealm: tokenServer?.realm,
      tokenService: tokenServer ? TOKEN_SERVICE : undefined,
      stop() {
        stopping ??= stopChild(registry.child).then(cleanUp);
        return stopping;
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
