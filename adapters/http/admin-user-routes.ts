import { Elysia, t } from "elysia";
import type { Page, PageRequest } from "../../application/shared/ports.ts";
import type { AccessChange, Account } from "../../domain/identity/account.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { RoleSchema, toUserBody, UserBody } from "./auth-routes.ts";
import { named, page } from "./openapi-models.ts";
import { Cursor, IdParams, ListLimit, pageRequest } from "./shared-schemas.ts";

export interface AdminUserDeps {
  readonly auth: AuthOptions;
  listAccounts(page: PageRequest): Promise<Page<Account>>;
  changeAccess(actorId: string, userId: string, change: AccessChange): Promise<Account>;
}

const AccountBody = named("Account", t.Object({ ...UserBody.properties, disabled: t.Boolean() }));

// A named model, so that its role stays a reference to `Role` in the document (openapi-models.ts).
const AccessChangeBody = named(
  "AccessChange",
  t.Object(
    { role: t.Optional(RoleSchema), disabled: t.Optional(t.Boolean()) },
    { additionalProperties: false, minProperties: 1 },
  ),
);

const toAccountBody = (account: Account) => ({ ...toUserBody(account), disabled: account.disabled });

/** Who may sign in and with which role: a change applies at once here and within 5 s on every instance. */
export function createAdminUserRoutes(deps: AdminUserDeps) {
  return new Elysia({ name: "admin-user-routes", tags: ["admin: users"] })
    .use(createAuth(deps.auth))
    .guard({ auth: "admin", detail: { security: [{ bearer: [] }] } }, (app) =>
      app
        .get(
          "/api/admin/users",
          async ({ query }) => {
            const { items, next_cursor } = await deps.listAccounts(pageRequest(query));
            return { items: items.map(toAccountBody), next_cursor };
          },
          {
            query: t.Object({ cursor: Cursor, limit: ListLimit }),
            response: { 200: page(AccountBody) },
            detail: { summary: "Accounts, newest first" },
          },
        )
        .patch(
          "/api/admin/users/:id",
          async ({ params, body, principal }) =>
            toAccountBody(await deps.changeAccess(principal.userId, params.id, body)),
          {
            params: IdParams,
            body: AccessChangeBody,
            response: { 200: AccountBody },
            detail: {
              summary: "Promote, demote, disable or enable another account (disabling also voids its tokens)",
            },
          },
        ),
    );
}
