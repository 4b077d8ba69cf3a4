/**
 * What the account's emailed links share: password reset, email verification and change of
 * address. Each kind is capped per account, so a stranger asking again and again fills no inbox.
 */

/** At most this many links of one kind per account in `LINK_WINDOW_MS`; more requests send nothing. */
export const LINKS_PER_WINDOW = 3;
export const LINK_WINDOW_MS = 15 * 60_000;

/** "1 hour", "30 minutes": how long a link stays valid, as the email says it. */
export function validityText(seconds: number): string {
  const [amount, unit] = seconds % 3600 === 0 ? [seconds / 3600, "hour"] : [Math.ceil(seconds / 60), "minute"];
  return `${amount} ${unit}${amount === 1 ? "" : "s"}`;
}

/** The console page at `path` under the shop's public address, carrying the link's token. */
export function accountPageLink(publicBaseUrl: string, path: string, token: string): string {
  const url = new URL(path, publicBaseUrl);
  url.searchParams.set("token", token);
  return url.href;
}
