import { Elysia, t } from "elysia";
import { DownloadRevoked, DownloadSuspended } from "../../application/customers/errors.ts";
import { DownloadSourceBusy } from "../../application/shared/errors.ts";
import { PROBLEM_CONTENT_TYPE } from "../../kit/problem.ts";
import type { DownloadRequest } from "../downloads/artifact-download.ts";
import { ProblemSchema } from "./problem-schema.ts";

/** The document maps the TypeBox schemas; the plugin's types expect plain JSON Schema there. */
const refused = (description: string) => ({
  description,
  content: { [PROBLEM_CONTENT_TYPE]: { schema: ProblemSchema as unknown as Record<string, never> } },
});

export interface DownloadDeps {
  /** Signed link token to the artifact URL; throws the download errors of the application layer. */
  resolveDownload(token: string): Promise<string>;
  /** The artifact at that URL as the customer's answer, streamed (adapters/downloads/artifact-download.ts). */
  downloadArtifact(url: string, request: DownloadRequest): Promise<Response>;
}

const HEAD_PATH = /^\/api\/downloads\/([^/]{1,1024})$/;

const ARCHIVE_DESCRIPTION = "The release archive, or the byte range asked for";
const ARCHIVE_TYPE = "application/octet-stream";
const Archive = t.String({ description: ARCHIVE_DESCRIPTION, format: "binary", contentMediaType: ARCHIVE_TYPE });

/**
 * The signed link is the credential by itself, so a browser following it from the dashboard (no
 * Authorization header) gets the artifact. Every request, each range of a resumed download
 * included, is checked against the link and its license first; a transfer under way stops when the
 * license is revoked or suspended. The access log never holds the token.
 */
export function createDownloadRoutes(deps: DownloadDeps) {
  const serve = async (token: string, request: Request, headers: Record<string, string | number>) => {
    const url = await deps.resolveDownload(token);
    const stillAllowed = () =>
      deps.resolveDownload(token).then(
        () => true,
        // The link's own expiry bounds when a download may start; a transfer begun in time may end.
        (error) => !(error instanceof DownloadRevoked || error instanceof DownloadSuspended),
      );
    try {
      return await deps.downloadArtifact(url, {
        method: request.method === "HEAD" ? "HEAD" : "GET",
        range: request.headers.get("range"),
        ifRange: request.headers.get("if-range"),
        stillAllowed,
      });
    } catch (error) {
      if (error instanceof DownloadSourceBusy) headers["retry-after"] = String(error.retryAfterSeconds);
      throw error;
    }
  };
  const archive = {
    description: ARCHIVE_DESCRIPTION,
    content: { [ARCHIVE_TYPE]: { schema: Archive as unknown as Record<string, never> } },
  };
  // The answer is a streamed `Response`, which Elysia never checks against a `response` schema;
  // the OpenAPI plugin would replace these responses with that schema's.
  const options = {
    params: t.Object({ token: t.String({ maxLength: 1024 }) }),
    detail: {
      tags: ["licensing"],
      summary: "Download the release archive of a signed, expiring link (no sign-in; byte ranges and HEAD supported)",
      responses: {
        200: archive,
        206: archive,
        403: refused("DOWNLOAD_LINK_INVALID: tampered, or not bound to its entitlement's customer; DOWNLOAD_SUSPENDED"),
        410: refused("DOWNLOAD_LINK_EXPIRED: past its expiry; DOWNLOAD_REVOKED: its license or entitlement is revoked"),
        416: refused("RANGE_NOT_SATISFIABLE: the range lies outside the file (Content-Range names its size)"),
        502: refused("DOWNLOAD_SOURCE_FAILED: the server holding the archive failed or answered nonsense"),
        503: refused(
          "DOWNLOAD_SOURCE_BUSY: the server holding the archive is busy; DATABASE_UNAVAILABLE (both with Retry-After)",
        ),
        504: refused("DOWNLOAD_SOURCE_TIMEOUT: the server holding the archive did not answer in time"),
      },
    },
  };
  return (
    new Elysia({ name: "download-routes" })
      // Elysia answers a HEAD to a dynamic path through its GET route and counts the body for
      // Content-Length, which would read the whole archive: a HEAD is answered here, before routing.
      .onRequest(({ request, set }) => {
        if (request.method !== "HEAD") return;
        const token = HEAD_PATH.exec(new URL(request.url).pathname)?.[1];
        if (token !== undefined) return serve(token, request, set.headers);
      })
      .get("/api/downloads/:token", ({ params, request, set }) => serve(params.token, request, set.headers), options)
  );
}
