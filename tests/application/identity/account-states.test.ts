import { describe, expect, test } from "bun:test";
import { ACCOUNTS_TOPIC, makeAccountStates } from "../../../application/identity/account-states.ts";
import type { Account } from "../../../domain/identity/account.ts";
import { createInMemoryChangeSignal } from "../../support/fakes/in-memory-change-signal.ts";

const anAccount = (id: string, overrides: Partial<Account> = {}): Account => ({
  id,
  email: `${id}@example.com`,
  name: id,
  role: "admin",
  emailVerified: true,
  guest: false,
  createdAt: new Date(),
  disabled: false,
  tokenVersion: 0,
  ...overrides,
});

/** Accounts behind a query counter, a hand-moved clock, and queries that answer when told to. */
function setup(options: { maxEntries?: number; held?: boolean } = {}) {
  const stored = new Map<string, Account>();
  const queries: string[] = [];
  const held: (() => void)[] = [];
  let now = 1_000;
  const changes = createInMemoryChangeSignal();
  const states = makeAccountStates({
    users: {
      async findById(id) {
        queries.push(id);
        if (options.held) await new Promise<void>((resolve) => held.push(resolve));
        return stored.get(id);
      },
    },
    changes,
    now: () => now,
    ...(options.maxEntries ? { maxEntries: options.maxEntries } : {}),
  });
  return {
    stored,
    queries,
    states,
    changes,
    release: () => {
      for (const resolve of held.splice(0)) resolve();
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe("account states for the guard", () => {
  test("answers from memory for just under 5 s, then asks the database again", async () => {
    const { stored, queries, states, advance } = setup();
    stored.set("a", anAccount("a"));
    expect(await states.find("a")).toEqual({ role: "admin", disabled: false, tokenVersion: 0 });
    stored.set("a", anAccount("a", { role: "customer" }));
    advance(4_999);
    expect((await states.find("a"))?.role).toBe("admin");
    expect(queries).toHaveLength(1);
    advance(1);
    expect((await states.find("a"))?.role).toBe("customer");
    expect(queries).toHaveLength(2);
  });

  test("an answer's age counts from when its query was sent, not when it came back", async () => {
    const { stored, states, advance, release } = setup({ held: true });
    stored.set("a", anAccount("a"));
    const first = states.find("a");
    advance(3_000);
    release();
    await first;
    stored.set("a", anAccount("a", { disabled: true }));
    advance(2_000);
    const second = states.find("a");
    release();
    expect((await second)?.disabled).toBe(true);
  });

  test("an unknown user is remembered too, so a deleted account's tokens cost no query", async () => {
    const { queries, states } = setup();
    expect(await states.find("gone")).toBeUndefined();
    expect(await states.find("gone")).toBeUndefined();
    expect(queries).toEqual(["gone"]);
  });

  test("concurrent misses for one user share one query", async () => {
    const { stored, queries, states, release } = setup({ held: true });
    stored.set("a", anAccount("a"));
    const answers = Promise.all(Array.from({ length: 50 }, () => states.find("a")));
    release();
    expect(new Set((await answers).map((state) => state?.role))).toEqual(new Set(["admin"]));
    expect(queries).toEqual(["a"]);
  });

  test("holds at most maxEntries users, dropping the oldest first", async () => {
    const { queries, states } = setup({ maxEntries: 3 });
    for (const id of ["a", "b", "c", "d"]) await states.find(id);
    await states.find("d");
    await states.find("b");
    expect(queries).toEqual(["a", "b", "c", "d"]);
    await states.find("a");
    expect(queries).toEqual(["a", "b", "c", "d", "a"]);
  });

  test("a change signal forgets every entry at once", async () => {
    const { stored, states, changes } = setup();
    stored.set("a", anAccount("a"));
    await states.find("a");
    stored.set("a", anAccount("a", { tokenVersion: 1 }));
    await changes.publish(ACCOUNTS_TOPIC);
    expect((await states.find("a"))?.tokenVersion).toBe(1);
  });

  test("a query sent before a change signal is not remembered", async () => {
    const { stored, queries, states, changes, release } = setup({ held: true });
    stored.set("a", anAccount("a"));
    const before = states.find("a");
    await changes.publish(ACCOUNTS_TOPIC);
    release();
    await before;
    const after = states.find("a");
    release();
    await after;
    expect(queries).toEqual(["a", "a"]);
  });
});
