import { describe, expect, test } from "bun:test";
import { ACCOUNTS_TOPIC } from "../../../application/identity/account-states.ts";
import { makeChangeAccess } from "../../../application/identity/change-access.ts";
import { createInMemoryAuditLogWriter } from "../../support/fakes/in-memory-audit-log-writer.ts";
import { createInMemoryChangeSignal } from "../../support/fakes/in-memory-change-signal.ts";
import { createInMemoryUserRepository } from "../../support/fakes/in-memory-user-repository.ts";

async function setup() {
  const audit = createInMemoryAuditLogWriter();
  const users = createInMemoryUserRepository(audit);
  const changes = createInMemoryChangeSignal();
  const boss = await users.insert({ email: "boss@example.com", name: "Boss", role: "admin", passwordHash: "plain:b" });
  const ada = await users.insert({ email: "ada@example.com", name: "Ada", role: "customer", passwordHash: "plain:a" });
  if (!boss || !ada) throw new Error("seed failed");
  return { users, changes, audit, boss, ada, changeAccess: makeChangeAccess({ users, changes }) };
}

describe("changeAccess", () => {
  test("promotes an account to admin, stores it and tells every instance", async () => {
    const { changeAccess, users, changes, boss, ada } = await setup();
    expect(await changeAccess(boss.id, ada.id, { role: "admin" })).toMatchObject({ id: ada.id, role: "admin" });
    expect((await users.findById(ada.id))?.role).toBe("admin");
    expect(changes.published).toEqual([ACCOUNTS_TOPIC]);
  });

  test("disabling voids the account's tokens once; enabling it again keeps them void", async () => {
    const { changeAccess, users, boss, ada } = await setup();
    expect(await changeAccess(boss.id, ada.id, { disabled: true })).toMatchObject({ disabled: true, tokenVersion: 1 });
    expect(await changeAccess(boss.id, ada.id, { disabled: true })).toMatchObject({ tokenVersion: 1 });
    expect(await changeAccess(boss.id, ada.id, { disabled: false })).toMatchObject({
      disabled: false,
      tokenVersion: 1,
    });
    expect(await users.findById(ada.id)).toMatchObject({ disabled: false, tokenVersion: 1 });
  });

  test.each([
    ["demote", { role: "customer" as const }],
    ["disable", { disabled: true }],
  ])(
    "an admin cannot %s themselves: ADMIN_SELF_LOCKOUT, nothing changes and nothing is signalled",
    async (_, change) => {
      const { changeAccess, users, changes, boss } = await setup();
      await expect(changeAccess(boss.id, boss.id, change)).rejects.toMatchObject({ code: "ADMIN_SELF_LOCKOUT" });
      expect(await users.findById(boss.id)).toEqual(boss);
      expect(changes.published).toEqual([]);
    },
  );

  test("a change to oneself that keeps admin access is allowed", async () => {
    const { changeAccess, boss } = await setup();
    expect(await changeAccess(boss.id, boss.id, { role: "admin", disabled: false })).toMatchObject({
      role: "admin",
      disabled: false,
    });
  });

  test("an unknown user is USER_NOT_FOUND and nothing is signalled", async () => {
    const { changeAccess, changes, boss } = await setup();
    await expect(changeAccess(boss.id, crypto.randomUUID(), { disabled: true })).rejects.toMatchObject({
      code: "USER_NOT_FOUND",
    });
    expect(changes.published).toEqual([]);
  });
});

describe("the audit log", () => {
  test("a change is one user.update entry by the acting admin, holding what was asked", async () => {
    const { changeAccess, audit, boss, ada } = await setup();
    await changeAccess(boss.id, ada.id, { role: "admin", disabled: true });
    expect(audit.all()).toEqual([
      {
        actor_id: boss.id,
        action: "user.update",
        target_type: "user",
        target_id: ada.id,
        summary: { role: "admin", disabled: true },
      },
    ]);
  });

  test("a refused change (an admin locking themself out, an unknown user) leaves no entry", async () => {
    const { changeAccess, audit, boss } = await setup();
    await expect(changeAccess(boss.id, boss.id, { disabled: true })).rejects.toMatchObject({
      code: "ADMIN_SELF_LOCKOUT",
    });
    await expect(changeAccess(boss.id, crypto.randomUUID(), { role: "admin" })).rejects.toMatchObject({
      code: "USER_NOT_FOUND",
    });
    expect(audit.all()).toEqual([]);
  });
});
