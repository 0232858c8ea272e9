import { randomBytes } from "node:crypto";
import { ExitCode, PkgError, registerSecret } from "@pkg/common";

export interface RegistryUser {
  username: string;
  password: string;
}

/** The credential a basic or token registry accepts: the one given, or a fresh random one. */
export function registryUser(given: RegistryUser | undefined): RegistryUser {
  const user = given ?? { username: "pkg-test", password: randomBytes(12).toString("hex") };
  if (user.username === "" || user.username.includes(":")) {
    throw new PkgError(
      ExitCode.Usage,
      `registry user name "${user.username}" must be non-empty and free of ':'`,
    );
  }
  registerSecret(user.password);
  return user;
}
