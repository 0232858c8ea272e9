// The local package store ($PKG_HOME, default ~/.pkg): see README.md here for its layout and rules.
export { matchesDigest, readBlob, writeBlob } from "./blobs.js";
export { blobPath, layerPath, openStore, packagePath, type Store } from "./home.js";
export { type InstallOptions, installDependencies, installPackage } from "./install.js";
export { type InstalledPackage, type InstallRecord, packageFiles, readInstalled } from "./installed.js";
export { readRef, writeRef } from "./refs.js";
export { loadManifestBytes, type ResolvedManifest, resolveManifest, type SourceOptions } from "./resolve.js";
export { openInSource, type PackageSource, type SourceReference } from "./source.js";
