import type { Role } from "../../domain/identity/user.ts";
import { TEST_ISSUER, TEST_JWT_SECRET } from "./app.ts";
import { openTestDatabases } from "./database.ts";
import { forgeJwt, nowSeconds } from "./jwt.ts";

/**
 * A valid token for a role. The guard reads role and account state from the database, so the
 * account gets a row in every open test database; an existing account is left as it is.
 */
export async function tokenFor(role: Role, sub: string = crypto.randomUUID()): Promise<string> {
  for (const { sql } of openTestDatabases) {
    await sql`
      insert into users (id, email, name, role, password_hash)
      values (${sub}, ${`token-${sub}@example.test`}, 'Token holder', ${role}, 'no password: tokens only')
      on conflict do nothing`;
  }
  return forgeJwt(
    { alg: "HS256", typ: "JWT" },
    { sub, role, iss: TEST_ISSUER, iat: nowSeconds(), exp: nowSeconds() + 600 },
    TEST_JWT_SECRET,
  );
}
