import bcrypt from "bcryptjs";
import type { RegistryUser } from "./registry-user.js";

/**
 * bcrypt's lowest cost: distribution checks the hash on every request, and a test credential
 * needs no resistance to brute force.
 */
const BCRYPT_COST = 4;

/** One htpasswd line in the bcrypt form distribution requires. */
export function htpasswdLine(user: RegistryUser): string {
  return `${user.username}:${bcrypt.hashSync(user.password, BCRYPT_COST)}`;
}
