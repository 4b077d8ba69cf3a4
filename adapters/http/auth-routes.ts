import { Elysia, t } from "elysia";
import type { Account } from "../../domain/identity/account.ts";
import { SignInThrottled } from "../../domain/identity/errors.ts";
import { PASSWORD_MAX_LENGTH } from "../../domain/identity/password-policy.ts";
import type { Registration, User } from "../../domain/identity/user.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { named, noContent } from "./openapi-models.ts";
import { clientAddress } from "./rate-limit.ts";

export const RoleSchema = named("Role", t.Union([t.Literal("customer"), t.Literal("admin")]));

export const UserBody = named(
  "User",
  t.Object({
    id: t.String({ format: "uuid" }),
    email: t.String(),
    name: t.String(),
    role: RoleSchema,
    email_verified: t.Boolean({
      description: "Whether a link emailed to the address was opened; `POST /api/auth/verify-email` sends a new one",
    }),
    guest: t.Boolean({
      description:
        "A guest customer record: someone bought without an account; it cannot sign in until a link in its emails sets a password",
    }),
    created_at: t.String({ format: "date-time" }),
  }),
);

const SessionBody = named(
  "Session",
  t.Object({ token: t.String({ description: "Bearer token (JWT, HS256)" }), user: UserBody }),
);

export const toUserBody = (user: User) => ({
  id: user.id,
  email: user.email,
  name: user.name,
  role: user.role,
  email_verified: user.emailVerified,
  guest: user.guest,
  created_at: user.createdAt.toISOString(),
});

export interface AuthRoutesDeps {
  readonly auth: AuthOptions;
  registerCustomer(input: Registration): Promise<Account>;
  authenticate(input: { email: string; password: string; client: string }): Promise<Account>;
  /** Whether a trusted proxy names the client in `X-Forwarded-For`, as for the per-address rate limit. */
  readonly rateLimits?: { readonly trustProxy: boolean };
  getUser(id: string): Promise<User>;
  logOutEverywhere(userId: string): Promise<void>;
  requestPasswordReset(input: { email: string }): Promise<void>;
  resetPassword(input: { token: string; password: string }): Promise<void>;
  claimGuestAccount(input: { token: string; password: string; name?: string | undefined }): Promise<Account>;
}

/**
 * What a password field takes before the policy reads it: 256 characters (code points) may take 512
 * UTF-16 units, and a password a little too long is refused by the policy, with its own field error,
 * rather than by the schema.
 */
export const PASSWORD_FIELD_MAX_LENGTH = 4 * PASSWORD_MAX_LENGTH;

export const PASSWORD_RULES =
  "A password is 12 to 256 characters, any characters at all, and not on the list of common passwords the marketplace ships; a refusal names the rule in its field error's code: `PASSWORD_TOO_SHORT`, `PASSWORD_TOO_LONG` or `PASSWORD_TOO_COMMON`.";

/** The per-account wait answers like the per-address limit: 429 with how long to wait. */
export const withRetryAfter =
  (set: { headers: Record<string, string | number> }) =>
  (error: unknown): never => {
    if (error instanceof SignInThrottled) set.headers["retry-after"] = String(error.retryAfterSeconds);
    throw error;
  };

export function createAuthRoutes(deps: AuthRoutesDeps) {
  // Each sign-in is a session of its own (`sid`), which a password change can keep signed in.
  const issue = (
    sign: (claims: { sub: string; role: string; ver: number; sid: string }) => Promise<string>,
    account: Account,
  ) =>
    sign({ sub: account.id, role: account.role, ver: account.tokenVersion, sid: crypto.randomUUID() }).then(
      (token) => ({ token, user: toUserBody(account) }),
    );
  const client = (request: Request, server: Parameters<typeof clientAddress>[1]) =>
    clientAddress(request, server, deps.rateLimits?.trustProxy ?? false);

  return new Elysia({ name: "auth-routes", tags: ["auth"] })
    .use(createAuth(deps.auth))
    .post(
      "/api/auth/register",
      async ({ body, jwt, set }) => {
        const user = await deps.registerCustomer(body);
        set.status = 201;
        return issue(jwt.sign, user);
      },
      {
        body: t.Object({
          email: t.String({ maxLength: 254 }),
          password: t.String({ maxLength: PASSWORD_FIELD_MAX_LENGTH }),
          name: t.String({ maxLength: 200 }),
        }),
        response: { 201: SessionBody },
        detail: { summary: "Register a customer account and get a token", description: PASSWORD_RULES },
      },
    )
    .post(
      "/api/auth/login",
      async ({ body, jwt, set, request, server }) => {
        const account = await deps
          .authenticate({ ...body, client: client(request, server) })
          .catch(withRetryAfter(set));
        return issue(jwt.sign, account);
      },
      {
        body: t.Object({
          email: t.String({ maxLength: 254 }),
          password: t.String({ maxLength: PASSWORD_FIELD_MAX_LENGTH }),
        }),
        response: { 200: SessionBody },
        detail: {
          summary: "Exchange email and password for a token",
          description:
            "Failed attempts are also counted per account, answered 429 `SIGN_IN_THROTTLED` with `Retry-After`: from one client address, after 5 in a row each next attempt waits twice as long (1 s, 2 s, 4 s ... at most 15 min); from every address together, after 20 the same, at most 60 s. A successful sign-in clears the account's count and its address's.",
        },
      },
    )
    .post(
      "/api/auth/password-reset",
      async ({ body, set }) => {
        await deps.requestPasswordReset(body);
        set.status = 202;
      },
      {
        body: t.Object({ email: t.String({ maxLength: 254 }) }),
        detail: {
          summary: "Ask for a password reset link by email",
          description:
            "Answered `202` for every well-formed address, whether an account has it or not, after the same work, so the answer tells nothing about which addresses have accounts. An enabled account with the address is emailed a link to `/account/reset-password?token=…`, valid for `PASSWORD_RESET_TTL_SECONDS` (default 3600) and usable once; at most 3 links are sent per account in 15 minutes. Limited per client address like sign-in.",
          responses: { 202: { description: "Asked: a link is on its way if an account has the address" } },
        },
      },
    )
    .post(
      "/api/auth/password-reset/confirm",
      async ({ body, set }) => {
        await deps.resetPassword(body);
        set.status = 204;
      },
      {
        body: t.Object({
          token: t.String({ maxLength: 128, description: "The `token` of the emailed link" }),
          password: t.String({ maxLength: PASSWORD_FIELD_MAX_LENGTH, description: "The new password" }),
        }),
        detail: {
          summary: "Set a new password with a reset link's token",
          description: `Spends the link and ends every session of the account: tokens issued before are refused. A link used, expired or never issued is \`400\` \`RESET_TOKEN_INVALID\`. ${PASSWORD_RULES}`,
          responses: noContent("The password is set; sign in with it"),
        },
      },
    )
    .post("/api/auth/claim", async ({ body, jwt }) => issue(jwt.sign, await deps.claimGuestAccount(body)), {
      body: t.Object({
        token: t.String({ maxLength: 128, description: "The `token` of the link in a guest's emails" }),
        password: t.String({ maxLength: PASSWORD_FIELD_MAX_LENGTH, description: "The account's password" }),
        name: t.Optional(t.String({ maxLength: 200, description: "The name to greet, in place of the checkout's" })),
      }),
      response: { 200: SessionBody },
      detail: {
        summary: "Set a password with the link a guest's emails carry, and sign in",
        description: `The guest record becomes an account with its address verified, holding every order bought as a guest with the address. When an account has the address already, that account takes the password (the link proves the mailbox, as a reset does), the guest's orders join it, and its other sessions end. The links work for \`GUEST_CLAIM_TTL_SECONDS\` (default 30 days); one used, expired or never issued is \`400\` \`EMAIL_LINK_INVALID\`, and any other link of the guest is spent with the first. ${PASSWORD_RULES}`,
      },
    })
    .get("/api/me", async ({ principal }) => toUserBody(await deps.getUser(principal.userId)), {
      auth: ["customer", "admin"],
      response: { 200: UserBody },
      detail: { summary: "The signed-in account", security: [{ bearer: [] }] },
    })
    .post(
      "/api/auth/logout-all",
      async ({ principal, set }) => {
        await deps.logOutEverywhere(principal.userId);
        set.status = 204;
      },
      {
        auth: ["customer", "admin"],
        detail: {
          summary: "Void every token of the signed-in account issued so far, this one included",
          security: [{ bearer: [] }],
          responses: noContent("Every token issued so far is void"),
        },
      },
    );
}
