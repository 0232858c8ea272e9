export type PackageManager = "npm" | "bun";

/** The commands a CI job runs with one package manager. */
export interface PackageManagerCommands {
  /** Installs exactly what the lockfile pins. */
  install: string;
  /** Prefix that runs an installed package's bin. */
  exec: string;
  lockfile: string;
}

export function packageManagerCommands(manager: PackageManager): PackageManagerCommands {
  return manager === "bun"
    ? { install: "bun install --frozen-lockfile", exec: "bunx", lockfile: "bun.lock" }
    : { install: "npm ci", exec: "npx", lockfile: "package-lock.json" };
}
