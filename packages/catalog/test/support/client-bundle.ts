import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const script = fileURLToPath(new URL("../../scripts/bundle-client.mjs", import.meta.url));

/** Bundles the browser code into dist/client, as the package build does (safe to run concurrently). */
export function bundleClient(): void {
  execFileSync(process.execPath, [script], { stdio: "ignore" });
}
