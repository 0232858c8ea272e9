// @pkg/net: the one network home of the pkg tools (no native modules, so the catalog may use it).
export {
  type Credential,
  type CredentialOptions,
  credentialSlug,
  resolveCredential,
} from "./credentials/credentials.js";
export {
  type DockerConfigLookup,
  lookupDockerConfig,
  parseHelperOutput,
} from "./credentials/docker-config.js";
export { findNetrcMachine, type NetrcEntry, parseNetrc } from "./credentials/netrc.js";
export { nextLink } from "./link.js";
export { extraCasFromEnv, pemCertificates } from "./tls-ca.js";
