import { Elysia, t } from "elysia";
import type { makeLicenseService } from "../../application/licensing/license-service.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { MachineSchema, toMachineBody } from "./customer-schemas.ts";
import { noContent, page } from "./openapi-models.ts";

export interface LicenseMachineDeps {
  readonly auth: AuthOptions;
  readonly licensing: Pick<ReturnType<typeof makeLicenseService>, "machines" | "releaseMachine">;
}

const LicenseParams = t.Object({ id: t.String({ maxLength: 64 }) });

/** The machines of a customer's own license, and freeing one's seat; another customer's license is 404. */
export function createLicenseMachineRoutes(deps: LicenseMachineDeps) {
  return new Elysia({ name: "license-machine-routes" })
    .use(createAuth(deps.auth))
    .guard({ auth: "customer", detail: { tags: ["customer"], security: [{ bearer: [] }] } }, (app) =>
      app
        .get(
          "/api/licenses/:id/machines",
          async ({ principal, params }) => ({
            items: (await deps.licensing.machines(principal.userId, params.id)).map(toMachineBody),
            next_cursor: null,
          }),
          {
            params: LicenseParams,
            response: { 200: page(MachineSchema) },
            detail: {
              summary: "The machines one of my licenses is activated on",
              description: "Another customer's license, or an unknown one, is `404` `LICENSE_NOT_FOUND`.",
            },
          },
        )
        .delete(
          "/api/licenses/:id/machines/:machine_id",
          async ({ principal, params, set }) => {
            await deps.licensing.releaseMachine(principal.userId, params.id, params.machine_id);
            set.status = 204;
          },
          {
            params: t.Object({ id: t.String({ maxLength: 64 }), machine_id: t.String({ maxLength: 64 }) }),
            detail: {
              summary: "Free a machine's seat of my license (a replaced laptop, say)",
              description:
                "`204` once freed; the machine can activate again later. A machine already freed, or not one of this license, is `404` `MACHINE_NOT_FOUND`.",
              responses: noContent("The seat is free"),
            },
          },
        ),
    );
}
