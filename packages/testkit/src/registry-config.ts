export type RegistryAuthConfig =
  | { kind: "none" }
  | { kind: "htpasswd"; path: string }
  | { kind: "token"; realm: string; service: string; issuer: string; rootCertBundle: string };

export interface RegistryConfigInput {
  port: number;
  storageDir: string;
  secret: string;
  auth: RegistryAuthConfig;
  tls?: { certPath: string; keyPath: string };
}

function authSection(auth: RegistryAuthConfig): Record<string, unknown> | undefined {
  switch (auth.kind) {
    case "none":
      return undefined;
    case "htpasswd":
      return { htpasswd: { realm: "pkg-testkit", path: auth.path } };
    case "token":
      return {
        token: {
          realm: auth.realm,
          service: auth.service,
          issuer: auth.issuer,
          rootcertbundle: auth.rootCertBundle,
        },
      };
  }
}

/**
 * The distribution configuration for one test registry, as JSON (which YAML parsers read):
 * loopback only, its own storage, deletes allowed, no background upload purging, and foreign
 * layer URLs of any form accepted.
 */
export function registryConfig(input: RegistryConfigInput): string {
  const auth = authSection(input.auth);
  const config = {
    version: "0.1",
    log: { level: "warn", formatter: "text", accesslog: { disabled: true } },
    storage: {
      filesystem: { rootdirectory: input.storageDir },
      delete: { enabled: true },
      maintenance: { uploadpurging: { enabled: false } },
    },
    http: {
      addr: `127.0.0.1:${input.port}`,
      secret: input.secret,
      ...(input.tls ? { tls: { certificate: input.tls.certPath, key: input.tls.keyPath } } : {}),
    },
    ...(auth ? { auth } : {}),
    validation: { manifests: { urls: { allow: [".*"] } } },
    health: { storagedriver: { enabled: false } },
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}
