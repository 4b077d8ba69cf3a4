import { describe, expect, test } from "bun:test";
import { useTestDatabase } from "../support/database.ts";
import { http, registerCustomer, useE2e } from "../support/e2e.ts";
import { aBoughtLicense } from "../support/licenses.ts";

const db = useTestDatabase();
const e2e = useE2e(db);

const aLicense = () => aBoughtLicense(e2e, db, { config: { max_activations: 2 } });

const activate = (key: string, fingerprint: string, facts: object = {}) =>
  http(e2e.url, "POST", "/api/licenses/activate", { body: { key, fingerprint, ...facts } });

describe("a license's machines", () => {
  test("are listed with what the software said of them; a freed seat can be taken again; both ways of freeing are idempotent by their 404", async () => {
    const { customer, key, licenseId } = await aLicense();
    expect(
      (await activate(key, "fp-laptop", { name: "Ada's laptop", platform: "linux-x64", hostname: "ada-l" })).status,
    ).toBe(200);
    expect((await activate(key, "fp-desktop")).status).toBe(200);
    const full = await activate(key, "fp-new-laptop");
    expect(full.status).toBe(409);
    expect(full.body.code).toBe("ACTIVATION_LIMIT_REACHED");

    // Seen again, a machine keeps its seat and what it says of itself now.
    expect((await activate(key, "fp-laptop", { name: "Ada's old laptop" })).body).toMatchObject({
      new_activation: false,
      activations: 2,
    });
    const listed = await http(e2e.url, "GET", `/api/licenses/${licenseId}/machines`, { token: customer.token });
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([
      expect.objectContaining({
        fingerprint: "fp-laptop",
        name: "Ada's old laptop",
        platform: "linux-x64",
        hostname: "ada-l",
      }),
      expect.objectContaining({ fingerprint: "fp-desktop", name: null, platform: null, hostname: null }),
    ]);
    const laptop = listed.body.items[0];
    expect(Date.parse(laptop.last_seen_at)).toBeGreaterThanOrEqual(Date.parse(laptop.activated_at));

    // The customer frees the old laptop from the account; the new one takes its seat.
    const freed = await http(e2e.url, "DELETE", `/api/licenses/${licenseId}/machines/${laptop.id}`, {
      token: customer.token,
    });
    expect(freed.status).toBe(204);
    const again = await http(e2e.url, "DELETE", `/api/licenses/${licenseId}/machines/${laptop.id}`, {
      token: customer.token,
    });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe("MACHINE_NOT_FOUND");
    expect((await activate(key, "fp-new-laptop")).status).toBe(200);

    // The software gives a seat back itself.
    const deactivated = await http(e2e.url, "POST", "/api/licenses/deactivate", {
      body: { key, fingerprint: "fp-desktop" },
    });
    expect(deactivated).toMatchObject({ status: 200, body: { deactivated: true } });
    const twice = await http(e2e.url, "POST", "/api/licenses/deactivate", { body: { key, fingerprint: "fp-desktop" } });
    expect(twice.status).toBe(404);
    expect(twice.body.code).toBe("MACHINE_NOT_FOUND");
    const remaining = await http(e2e.url, "GET", `/api/licenses/${licenseId}/machines`, { token: customer.token });
    expect(remaining.body.items.map((machine: { fingerprint: string }) => machine.fingerprint)).toEqual([
      "fp-new-laptop",
    ]);
  });

  test("are another customer's business: 404, and a key that is not genuine frees nothing", async () => {
    const { key, licenseId } = await aLicense();
    expect((await activate(key, "fp-1")).status).toBe(200);
    const stranger = await registerCustomer(e2e);
    const listed = await http(e2e.url, "GET", `/api/licenses/${licenseId}/machines`, { token: stranger.token });
    expect(listed.status).toBe(404);
    expect(listed.body.code).toBe("LICENSE_NOT_FOUND");
    const [machine] = await db.current.sql<
      { id: string }[]
    >`select id from license_activations where license_id = ${licenseId}`;
    const freed = await http(e2e.url, "DELETE", `/api/licenses/${licenseId}/machines/${machine?.id}`, {
      token: stranger.token,
    });
    expect(freed.status).toBe(404);
    const tampered = `${key.slice(0, -4)}AAAA`;
    const refused = await http(e2e.url, "POST", "/api/licenses/deactivate", {
      body: { key: tampered, fingerprint: "fp-1" },
    });
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe("LICENSE_NOT_FOUND");
    const unknownId = await http(e2e.url, "GET", "/api/licenses/not-a-uuid/machines", { token: stranger.token });
    expect(unknownId.status).toBe(404);
    const [count] = await db.current.sql<
      { n: number }[]
    >`select count(*)::int as n from license_activations where license_id = ${licenseId}`;
    expect(count?.n).toBe(1);
  });
});
