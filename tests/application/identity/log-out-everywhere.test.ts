import { describe, expect, test } from "bun:test";
import { ACCOUNTS_TOPIC } from "../../../application/identity/account-states.ts";
import { makeLogOutEverywhere } from "../../../application/identity/log-out-everywhere.ts";
import { createInMemoryChangeSignal } from "../../support/fakes/in-memory-change-signal.ts";
import { createInMemoryUserRepository } from "../../support/fakes/in-memory-user-repository.ts";

async function setup() {
  const users = createInMemoryUserRepository();
  const changes = createInMemoryChangeSignal();
  const ada = await users.insert({ email: "ada@example.com", name: "Ada", role: "customer", passwordHash: "plain:a" });
  const bob = await users.insert({ email: "bob@example.com", name: "Bob", role: "customer", passwordHash: "plain:b" });
  if (!ada || !bob) throw new Error("seed failed");
  return { users, changes, ada, bob, logOutEverywhere: makeLogOutEverywhere({ users, changes }) };
}

describe("logOutEverywhere", () => {
  test("raises the account's token version, voiding every token issued so far, and tells every instance", async () => {
    const { logOutEverywhere, users, changes, ada } = await setup();
    await logOutEverywhere(ada.id);
    expect((await users.findById(ada.id))?.tokenVersion).toBe(1);
    expect(changes.published).toEqual([ACCOUNTS_TOPIC]);
  });

  test("each call voids the tokens issued since the last one", async () => {
    const { logOutEverywhere, users, changes, ada } = await setup();
    await logOutEverywhere(ada.id);
    await logOutEverywhere(ada.id);
    expect((await users.findById(ada.id))?.tokenVersion).toBe(2);
    expect(changes.published).toEqual([ACCOUNTS_TOPIC, ACCOUNTS_TOPIC]);
  });

  test("leaves every other account's tokens alone", async () => {
    const { logOutEverywhere, users, ada, bob } = await setup();
    await logOutEverywhere(ada.id);
    expect(await users.findById(bob.id)).toEqual(bob);
  });

  test("an unknown user is USER_NOT_FOUND and nothing is signalled", async () => {
    const { logOutEverywhere, changes } = await setup();
    await expect(logOutEverywhere(crypto.randomUUID())).rejects.toMatchObject({ code: "USER_NOT_FOUND" });
    expect(changes.published).toEqual([]);
  });
});
