/** A URL or git remote as it may appear in messages: any `user:password@` removed. */
export function withoutCredentials(remote: string): string {
  if (URL.canParse(remote)) {
    const url = new URL(remote);
    if (url.username === "" && url.password === "") return remote;
    url.username = "";
    url.password = "";
    return url.href;
  }
  // scp-like `user@host:path` keeps its user (not a secret); a `user:password@` prefix goes.
  return remote.replace(/^[^@/:]+:[^@/]*@/, "");
}

/** `text` (a tool's error output) with the password of `remote`, if it has one, blanked out. */
export function scrubCredentials(text: string, remote: string): string {
  if (!URL.canParse(remote)) return text;
  const { password } = new URL(remote);
  if (password === "") return text;
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {
    // Not percent-encoded consistently: only the raw form can appear.
  }
  return text.replaceAll(password, "***").replaceAll(decoded, "***");
}
