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
export { authorizationValue, ladderAuthorization } from "./http/authorization.js";
export { discard, drain, pumpBody, readBody } from "./http/body.js";
export {
  createHttpClient,
  DEFAULT_TIMEOUT_MS,
  type HttpClientOptions,
  MAX_REDIRECTS,
  type PooledHttpClient,
  readOpenBody,
} from "./http/client.js";
export { displayUrl, HttpBodyTooLargeError, HttpTransportError } from "./http/errors.js";
export { createProxyDispatcher, type ProxySettings, proxySettings } from "./http/proxy-dispatcher.js";
export { REDIRECT_STATUSES, redirectedMethod } from "./http/redirect.js";
export type { HttpBody, StreamBody } from "./http/request-body.js";
export type {
  HttpBodySink,
  HttpClient,
  HttpMethod,
  HttpOpenResponse,
  HttpRequest,
  HttpResponse,
  HttpResponseHead,
  HttpStreamResult,
} from "./http/types.js";
export { nextLink } from "./link.js";
export { backoffDelay, type RetryPolicy, SPEC_BACKOFF } from "./retry/policy.js";
export { parseRetryAfter } from "./retry/retry-after.js";
export {
  classifyNetworkError,
  isCertificateError,
  isRetryableStatus,
  networkErrorCode,
} from "./retry/transient.js";
export { type RetryEvent, type RetryFailure, type RetryOptions, withRetries } from "./retry/with-retries.js";
export { extraCasFromEnv, pemCertificates } from "./tls-ca.js";
