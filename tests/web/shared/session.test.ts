import { describe, expect, test } from "bun:test";
import { createSessionStore, type Session } from "../../../web/shared/session.ts";

/** `sessionStorage` as the browser has it, in memory. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

const session: Session = {
  token: "header.payload.signature",
  user: { id: "u1", email: "a@example.com", role: "admin" },
};

describe("the session store", () => {
  test("signing in keeps the session under its key, a new store (a reload) finds it, signing out forgets it", () => {
    const storage = memoryStorage();
    const seen: (Session | undefined)[] = [];
    const store = createSessionStore("marketplace.admin_token", storage);
    store.subscribe((current) => seen.push(current));
    store.signIn(session);
    expect(createSessionStore("marketplace.admin_token", storage).current()).toEqual(session);
    store.signOut();
    expect(storage.getItem("marketplace.admin_token")).toBeNull();
    expect(store.current()).toBeUndefined();
    expect(seen).toEqual([session, undefined]);
  });

  test("what is not a session in storage (a bare token, garbage) is no session", () => {
    for (const stored of ["header.payload.signature", "{", '{"token": 1}', "null"]) {
      const storage = memoryStorage();
      storage.setItem("k", stored);
      expect(createSessionStore("k", storage).current()).toBeUndefined();
    }
  });

  test("an unsubscribed listener hears nothing more", () => {
    const store = createSessionStore("k", memoryStorage());
    let calls = 0;
    const unsubscribe = store.subscribe(() => {
      calls += 1;
    });
    unsubscribe();
    store.signIn(session);
    expect(calls).toBe(0);
  });
});
