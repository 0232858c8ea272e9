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
