// Preparing a package's content tree between extraction and bundling.
export { applyBinScan, scanBinaries } from "./binary-scan.js";
export { readElfInterpreter } from "./elf-file.js";
export { applyExecutableBits } from "./executable-bits.js";
export { type InterfaceFile, interfaceFiles, interfacePathDirectories } from "./interface-files.js";
export { type LibcLintOptions, lintLibc } from "./libc-lint.js";
export { keyForLibc } from "./loader.js";
export { type PrepareContentOptions, type PreparedContent, prepareContent } from "./prepare.js";
export { type SelectedMetadata, selectMetadata } from "./select-metadata.js";
export { type ContentKeys, type ContentSettings, contentSettings, metadataPathFor } from "./settings.js";
export type { BuildSubject } from "./subject.js";
