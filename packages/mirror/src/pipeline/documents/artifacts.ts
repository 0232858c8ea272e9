/**
 * The names the pipeline's jobs find each other's files by: prepare writes bundles and their
 * metadata, the test legs write JUnit files, push reads both. `tag` is the plan's `version` (the
 * primary tag), `slug` a leg's `platform_slug`, `container` a container id.
 */
export const bundleFileName = (tag: string, slug: string) => `bundle-${tag}-${slug}.tar.zst`;

/** Layer `n` (from 1) of an environment package's platform: one per wheel. */
export const bundleLayerFileName = (tag: string, slug: string, n: number) =>
  `bundle-${tag}-${slug}-layer${n}.tar.zst`;

/** The metadata.json the bundle was built with, beside it. */
export const bundleMetadataFileName = (tag: string, slug: string) => `bundle-${tag}-${slug}-metadata.json`;

/** What prepare built for one version (see `PreparedVersion`). */
export const preparedManifestFileName = (tag: string) => `prepared-${tag}.json`;

export const junitFileName = (tag: string, slug: string, container: string) =>
  `junit-${tag}-${slug}-${container}.xml`;

/** The JUnit suite (and classname) of one leg's tests of one version. */
export const junitSuiteName = (tag: string, slug: string, container: string) => `${tag}.${slug}.${container}`;
