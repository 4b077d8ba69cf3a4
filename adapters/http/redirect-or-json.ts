type ResponseSet = { status?: number | string; headers: Record<string, string | number> };

/**
 * A link to another site (a gateway's portal or document): a `302` for a browser, or `200 {url}`
 * for a client that asks for `application/json` (a script cannot read a cross-site redirect).
 * Never cached, and the address it came from is not passed on.
 */
export function redirectOrJson(request: Request, set: ResponseSet, url: string): { url: string } {
  set.headers["cache-control"] = "no-store";
  set.headers["referrer-policy"] = "no-referrer";
  if (request.headers.get("accept")?.includes("application/json")) return { url };
  set.status = 302;
  set.headers.location = url;
  return { url };
}
