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
