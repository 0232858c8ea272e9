import { formatVersion, parseTag, withoutBuild } from "../version/index.js";

/** What a test is told about itself through `PKG_*` variables. */
export interface TestIdentity {
  /** `PKG_INSTALL_DIR`: the package's content directory. */
  installDir: string;
  /** `PKG_VERSION`: the version tested ("" when not known). */
  version: string;
  /** `PKG_PLATFORM`: the platform key's slug (`linux-amd64-musl`). */
  platformSlug: string;
  /** `PKG_IMAGE`: the container image the leg runs in, "" on a native leg. */
  image: string;
  /** `PKG_TEST_NAME`: the `tests[].name` of this invocation ("" when not named). */
  testName: string;
}

/** The variables a test sees, set over whatever the environment had. */
export function testVariables(identity: TestIdentity): Record<string, string> {
  return {
    PKG_INSTALL_DIR: identity.installDir,
    PKG_VERSION: identity.version,
    PKG_PLATFORM: identity.platformSlug,
    PKG_IMAGE: identity.image,
    PKG_TEST_NAME: identity.testName,
  };
}

/**
 * The version a tag names, without the build suffix and variant (`1.2.3_20250101120000` and
 * `slim-1.2.3` give `1.2.3`); a tag naming no version (`latest`), or none, gives undefined.
 */
export function versionOfTag(tag: string | undefined): string | undefined {
  if (tag === undefined) return undefined;
  const info = parseTag(tag);
  return "version" in info && info.version !== undefined
    ? formatVersion(withoutBuild(info.version))
    : undefined;
}

/**
 * A container image as an id for file and suite names, the spec's default container id: every
 * character outside `[A-Za-z0-9._-]` (`:`, `/`, `@`) becomes `_`, as the mirror spec loader
 * defaults `containers[].id` (`alpine:3.20` gives `alpine_3.20`); `native` without an image.
 */
export function containerId(image: string): string {
  if (image === "") return "native";
  return image.replace(/[^A-Za-z0-9._-]/g, "_");
}

/** The JUnit suite (and classname) a leg's tests go in: `<version>.<platform slug>.<container id>`. */
export function defaultSuiteName(version: string, platformSlug: string, image: string): string {
  return [version === "" ? "unversioned" : version, platformSlug, containerId(image)].join(".");
}
