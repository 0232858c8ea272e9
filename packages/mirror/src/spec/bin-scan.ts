import type { Field } from "./field.js";

/** `bin_scan`: how the package's `binaries` claim is derived from the extracted bundle. */
export type BinScan = (typeof BIN_SCAN_MODES)[number];

export const BIN_SCAN_MODES = ["off", "auto", "verify"] as const;
export const DEFAULT_BIN_SCAN: BinScan = "off";

export function readBinScan(field: Field): BinScan | undefined {
  return field.oneOf(BIN_SCAN_MODES);
}
