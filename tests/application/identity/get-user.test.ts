import { describe, expect, test } from "bun:test";
import { makeGetUser } from "../../../application/identity/get-user.ts";
import { createInMemoryUserRepository } from "../../support/fakes/in-memory-user-repository.ts";

describe("getUser", () => {
  test("returns the account with that id, without its password hash", async () => {
    const users = createInMemoryUserRepository();
    await users.insert({ email: "bob@example.com", name: "Bob", role: "customer", passwordHash: "plain:bob" });
    const ada = await users.insert({ email: "ada@example.com", name: "Ada", role: "admin", passwordHash: "plain:x" });
    if (!ada) throw new Error("seed failed");
    const found = await makeGetUser({ users })(ada.id);
    expect(found).toEqual(ada);
    expect(found).not.toHaveProperty("passwordHash");
  });

  test("an unknown id is USER_NOT_FOUND", async () => {
    const getUser = makeGetUser({ users: createInMemoryUserRepository() });
    await expect(getUser(crypto.randomUUID())).rejects.toMatchObject({ code: "USER_NOT_FOUND" });
  });
});
