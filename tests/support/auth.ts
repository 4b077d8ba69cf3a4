import type { Role } from "../../domain/identity/user.ts";
import { TEST_ISSUER, TEST_JWT_SECRET } from "./app.ts";
import { forgeJwt, nowSeconds } from "./jwt.ts";

/** A valid token for a role; the guards trust verified claims, so no account row is needed. */
export function tokenFor(role: Role, sub: string = crypto.randomUUID()): Promise<string> {
  return forgeJwt(
    { alg: "HS256", typ: "JWT" },
    { sub, role, iss: TEST_ISSUER, iat: nowSeconds(), exp: nowSeconds() + 600 },
    TEST_JWT_SECRET,
  );
}
