export {
  type ByteSource,
  type ElfInterpreter,
  elfInterpreter,
  elfInterpreterSync,
  type SyncByteSource,
} from "./elf.js";
export {
  dependencyHost,
  detectHostPlatform,
  formatHost,
  type HostPlatform,
  hostFromPlatformKey,
  matchesHost,
  runningLibc,
  selectPlatformEntry,
} from "./host.js";
export { executableLibc, libcOfLoader } from "./host-libc.js";
export {
  LIBC_FLAVORS,
  type LibcFlavor,
  libcOf,
  matchPlatformKey,
  type PlatformKey,
  parsePlatformKey,
  platformSlug,
} from "./key.js";
export { formatPlatform, platformKeyFromOci, platformsEqual, toOciPlatform } from "./oci.js";
