import { Elysia, t } from "elysia";
import { PROBLEM_CONTENT_TYPE } from "../../kit/problem.ts";
import { ProblemSchema } from "./problem-schema.ts";

/** The document maps the TypeBox schema; the plugin's types expect plain JSON Schema there. */
const refused = (description: string) => ({
  description,
  content: { [PROBLEM_CONTENT_TYPE]: { schema: ProblemSchema as unknown as Record<string, never> } },
});

export interface DownloadDeps {
  /** Signed link token to the artifact URL; throws the download errors of the application layer. */
  resolveDownload(token: string): Promise<string>;
}

/**
 * The signed link is the credential by itself, so a browser following it from the dashboard (no
 * Authorization header) gets the artifact. The access log never holds the token.
 */
export function createDownloadRoutes(deps: DownloadDeps) {
  return new Elysia({ name: "download-routes" }).get(
    "/api/downloads/:token",
    async ({ params, redirect }) => redirect(await deps.resolveDownload(params.token), 302),
    {
      params: t.Object({ token: t.String({ maxLength: 1024 }) }),
      response: { 302: t.Void({ description: "Redirect to the release artifact" }) },
      detail: {
        tags: ["licensing"],
        summary: "Follow a signed, expiring download link to the release artifact (redirects, no sign-in)",
        responses: {
          403: refused(
            "DOWNLOAD_LINK_INVALID: tampered, or not bound to its entitlement's customer; DOWNLOAD_SUSPENDED",
          ),
          410: refused(
            "DOWNLOAD_LINK_EXPIRED: past its expiry; DOWNLOAD_REVOKED: its license or entitlement is revoked",
          ),
        },
      },
    },
  );
}
