import { Elysia, t } from "elysia";
import type { KeptSession } from "../../domain/identity/account.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { PASSWORD_FIELD_MAX_LENGTH, PASSWORD_RULES, withRetryAfter } from "./auth-routes.ts";
import { noContent } from "./openapi-models.ts";
import { clientAddress } from "./rate-limit.ts";

export interface AccountRoutesDeps {
  readonly auth: AuthOptions;
  /** Whether a trusted proxy names the client in `X-Forwarded-For`, as for the per-address rate limit. */
  readonly rateLimits?: { readonly trustProxy: boolean };
  changePassword(input: {
    userId: string;
    session: KeptSession | undefined;
    currentPassword: string;
    newPassword: string;
    client: string;
  }): Promise<void>;
  requestEmailVerification(userId: string): Promise<void>;
  requestEmailChange(input: { userId: string; password: string; email: string; client: string }): Promise<void>;
  confirmEmail(input: { token: string }): Promise<void>;
}

/** The signed-in account's address and password: verifying the address, moving it, changing the password. */
export function createAccountRoutes(deps: AccountRoutesDeps) {
  const client = (request: Request, server: Parameters<typeof clientAddress>[1]) =>
    clientAddress(request, server, deps.rateLimits?.trustProxy ?? false);
  return new Elysia({ name: "account-routes", tags: ["auth"] })
    .use(createAuth(deps.auth))
    .post(
      "/api/auth/verify-email",
      async ({ principal, set }) => {
        await deps.requestEmailVerification(principal.userId);
        set.status = 202;
      },
      {
        auth: ["customer", "admin"],
        detail: {
          summary: "Email the signed-in account a new link that verifies its address",
          description:
            "Registration sends the first link. A link goes to `/account/verify-email?token=…`, works once and for `EMAIL_LINK_TTL_SECONDS` (default 86400); at most 3 address links are sent per account in 15 minutes. An address already verified is `409` `EMAIL_ALREADY_VERIFIED`.",
          security: [{ bearer: [] }],
          responses: { 202: { description: "A link is on its way to the account's address" } },
        },
      },
    )
    .post(
      "/api/auth/verify-email/confirm",
      async ({ body, set }) => {
        await deps.confirmEmail(body);
        set.status = 204;
      },
      {
        body: t.Object({ token: t.String({ maxLength: 128, description: "The `token` of the emailed link" }) }),
        detail: {
          summary: "Open an emailed address link: verify the address, or confirm a change of address",
          description:
            "A verification link marks the account's address verified; a change-of-address link (`POST /api/me/email`) moves the account to the new address, verified, and tells the previous address. Either way, deliveries that waited for a verified address (`REQUIRE_VERIFIED_EMAIL_FOR_DELIVERY`) start. A link used, expired or never issued is `400` `EMAIL_LINK_INVALID`; a new address another account took meanwhile is `409` `EMAIL_ALREADY_REGISTERED`.",
          responses: noContent("The address is verified"),
        },
      },
    )
    .post(
      "/api/me/password",
      async ({ body, principal, set, request, server }) => {
        await deps
          .changePassword({
            userId: principal.userId,
            session: principal.session,
            currentPassword: body.current_password,
            newPassword: body.new_password,
            client: client(request, server),
          })
          .catch(withRetryAfter(set));
        set.status = 204;
      },
      {
        auth: ["customer", "admin"],
        body: t.Object({
          current_password: t.String({ maxLength: PASSWORD_FIELD_MAX_LENGTH }),
          new_password: t.String({ maxLength: PASSWORD_FIELD_MAX_LENGTH }),
        }),
        detail: {
          summary: "Change the signed-in account's password",
          description: `Every other session of the account ends; this one stays signed in. A wrong \`current_password\` is \`403\` \`CURRENT_PASSWORD_WRONG\`, and counts as a failed sign-in (429 \`SIGN_IN_THROTTLED\` after too many). ${PASSWORD_RULES}`,
          security: [{ bearer: [] }],
          responses: noContent("The password is changed"),
        },
      },
    )
    .post(
      "/api/me/email",
      async ({ body, principal, set, request, server }) => {
        await deps
          .requestEmailChange({ ...body, userId: principal.userId, client: client(request, server) })
          .catch(withRetryAfter(set));
        set.status = 202;
      },
      {
        auth: ["customer", "admin"],
        body: t.Object({
          password: t.String({ maxLength: PASSWORD_FIELD_MAX_LENGTH }),
          email: t.String({ maxLength: 254 }),
        }),
        detail: {
          summary: "Ask to move the signed-in account to another email address",
          description:
            "A link goes to the new address (`/account/verify-email?token=…`); the change takes effect when it is opened (`POST /api/auth/verify-email/confirm`), and the previous address is then told. Until then the account keeps its address. A wrong `password` is `403` `CURRENT_PASSWORD_WRONG`, counted as a failed sign-in; an address another account has is `409` `EMAIL_ALREADY_REGISTERED`; the account's own is `422` `EMAIL_UNCHANGED`.",
          security: [{ bearer: [] }],
          responses: { 202: { description: "A link is on its way to the new address" } },
        },
      },
    );
}
