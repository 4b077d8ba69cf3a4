/** The value when it is an absolute http(s) URL without user info (what a workspace link may be); else null. */
export function httpUrlOrNull(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 2048 || value.trim() !== value) return null;
  try {
    const url = new URL(value);
    const web = url.protocol === "http:" || url.protocol === "https:";
    return web && url.username === "" && url.password === "" ? value : null;
  } catch {
    return null;
  }
}
