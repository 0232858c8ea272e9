import { ExitCode, PkgError } from "@pkg/common";
import type { HttpClient, HttpResponse } from "@pkg/net";
import { displayUrl } from "@pkg/net";

/**
 * GETs `url` through the mirror's client and returns a 2xx answer whose body is at most
 * `maxBytes`. A transport failure (refused, reset, DNS, TLS, timeout, a longer body) and a
 * non-2xx status are exit 69 (source unavailable), one line naming `what` and the URL (its query
 * hidden). Other errors of the client (a redirect to a URL with credentials: exit 65) pass as is.
 */
export async function fetchOrFail(
  http: HttpClient,
  url: string,
  what: string,
  maxBytes: number,
): Promise<HttpResponse> {
  let response: HttpResponse;
  try {
    response = await http.fetch({ url, maxBytes });
  } catch (error) {
    if (error instanceof PkgError && error.exitCode !== ExitCode.Unavailable) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new PkgError(ExitCode.Unavailable, `${what} is unreachable: ${reason}`, { cause: error });
  }
  if (response.status < 200 || response.status > 299) {
    throw new PkgError(ExitCode.Unavailable, `${what} ${displayUrl(url)} answered HTTP ${response.status}`);
  }
  // the client enforces maxBytes; checked again so that the limit holds whatever client is given
  if (response.body.length > maxBytes) {
    throw new PkgError(
      ExitCode.Unavailable,
      `${what} ${displayUrl(url)}: response body is larger than ${maxBytes} bytes`,
    );
  }
  return response;
}
