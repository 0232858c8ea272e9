import { parsePlatformKey } from "@pkg/package";

const COMPRESSION_SUFFIX = /\.(gz|xz|zst|bz2)$/i;
const EXE = /\.exe$/i;

/**
 * The file name a `binary` asset gets in the package: `name`, with `.exe` appended for a Windows
 * platform when the asset's own name carries it (before any compression suffix) and `name` lacks it.
 */
export function binaryFileName(name: string, assetName: string, platform: string): string {
  if (parsePlatformKey(platform).os !== "windows") return name;
  const carries = EXE.test(assetName.replace(COMPRESSION_SUFFIX, ""));
  return carries && !EXE.test(name) ? `${name}.exe` : name;
}
