import { PKG_CONTAINER_CLI_TAG } from "../test-leg/pkg-release.js";

/**
 * The third-party actions generated workflows use, each pinned by full commit SHA with the release
 * it is (rendered as `uses: <action>@<sha> # <release>`). The one table: bump a pin here and
 * regenerate; `generate ci --check` does not count a pin bump as drift, only a different action.
 */
export const ACTION_PINS = {
  checkout: {
    action: "actions/checkout",
    sha: "de0fac2e4500dabe0009e67214ff5f5447ce83dd",
    release: "v6.0.2",
  },
  setupNode: {
    action: "actions/setup-node",
    sha: "48b55a011bda9f5d6aeb4c2d9c7362e8dae4041e",
    release: "v6.4.0",
  },
  uploadArtifact: {
    action: "actions/upload-artifact",
    sha: "043fb46d1a93c77aae656e7c1c64a875d1fc6a0a",
    release: "v7.0.1",
  },
  downloadArtifact: {
    action: "actions/download-artifact",
    sha: "3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c",
    release: "v8.0.1",
  },
} as const satisfies Record<string, ActionPin>;

export interface ActionPin {
  /** `owner/repo`. */
  action: string;
  /** The full 40-character commit SHA. */
  sha: string;
  /** The release the SHA is, for the reader (the line's comment). */
  release: string;
}

export type PinnedAction = keyof typeof ACTION_PINS;

/**
 * The toolchain every generated job installs: the mirroring tool (which brings the package tool
 * of the same release) at the one version the renderer pins, `PKG_CONTAINER_CLI_TAG` without its
 * `v`, the release container legs mount too. Regenerate CI after bumping it.
 */
export const TOOLCHAIN_VERSION = PKG_CONTAINER_CLI_TAG.replace(/^v/, "");
/** The npm package the toolchain is installed from. */
export const TOOLCHAIN_PACKAGE = "@pkg/mirror";
/** The Node.js major the toolchain runs on (the set-up action's input). */
export const NODE_VERSION = "20";
/** GitLab-style jobs run in this image (Node and npm, git, curl). */
export const GITLAB_IMAGE = `node:${NODE_VERSION}-bookworm`;
