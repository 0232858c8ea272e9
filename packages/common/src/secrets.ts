/**
 * Every credential the process resolves is registered here, and every line the tools print
 * passes through `redact`: a secret that slips into an upstream error body or a URL is still
 * never shown.
 */
const secrets = new Set<string>();

/** Values shorter than this are too likely to occur by chance in ordinary text to be scrubbed. */
const MIN_SECRET_LENGTH = 4;

export function registerSecret(value: string | undefined): void {
  if (value && value.length >= MIN_SECRET_LENGTH) secrets.add(value);
}

export function redact(text: string): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join("***");
  // userinfo in URLs (https://user:pass@host) never reaches a log line either
  return out.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi, "$1***@");
}
