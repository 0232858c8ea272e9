import { readPackageVersion } from "@pkg/common";

/** The tool's own version, from its package.json. */
export const TOOL_VERSION: string = readPackageVersion(new URL("../package.json", import.meta.url));
