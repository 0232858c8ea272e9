import { execFileSync } from "node:child_process";

/** CLI tests run the built bins, as users do: bring the build (TypeScript, then the catalog's
 *  browser scripts) up to date once per test run. */
export default function setup(): void {
  execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-b"], { stdio: "inherit" });
  execFileSync(process.execPath, ["packages/catalog/scripts/bundle-client.mjs"], { stdio: "inherit" });
}
