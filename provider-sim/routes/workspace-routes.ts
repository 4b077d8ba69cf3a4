import { Elysia, t } from "elysia";
import type { TenantStore } from "../tenant-store.ts";

/** The page a tenant's `workspace_url` points at: proof that the workspace exists, nothing more. */
export function createWorkspaceRoutes(deps: { readonly store: TenantStore }) {
  return new Elysia().get(
    "/workspaces/:tenant",
    ({ params }) => {
      const tenant = deps.store.byTenantId(params.tenant);
      const title = Bun.escapeHTML(`Workspace ${tenant.ids.tenant}`);
      const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>Plan: ${Bun.escapeHTML(tenant.plan)}. Status: ${tenant.status}.</p></body></html>`;
      return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
    },
    { params: t.Object({ tenant: t.String({ minLength: 1, maxLength: 100 }) }) },
  );
}
