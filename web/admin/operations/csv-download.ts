/**
 * Saves what a list's current filter matches as its CSV export. The console's token travels in a
 * header, which a plain link cannot send, so the file is fetched and then handed to the browser.
 */
export async function saveCsv(call: Promise<{ data?: Blob; error?: unknown; response: Response }>): Promise<string> {
  const { data, response } = await call;
  if (!response.ok || !data) throw new Error(`The export failed: the server answered ${response.status}.`);
  const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "export.csv";
  const url = URL.createObjectURL(data);
  const link = Object.assign(document.createElement("a"), { href: url, download: name });
  link.click();
  URL.revokeObjectURL(url);
  return name;
}
