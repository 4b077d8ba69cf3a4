/** The longest URL we store or follow: configured provider addresses, workspace links. */
export const MAX_URL_LENGTH = 2048;

/** An absolute http(s) URL without user info: credentials never travel inside an address. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

/**
 * The value when it is an `isHttpUrl` address of at most `MAX_URL_LENGTH` characters with no
 * surrounding blanks (what a workspace link reported by a person or a provisioner may be); else null.
 */
export function httpUrlOrNull(value: unknown): string | null {
  if (typeof value !== "string" || value.length > MAX_URL_LENGTH || value.trim() !== value) return null;
  return isHttpUrl(value) ? value : null;
}
