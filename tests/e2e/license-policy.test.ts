import { describe, expect, setSystemTime, test } from "bun:test";
import { readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { aLicenseProduct } from "../support/builders/products.ts";
import { useTestDatabase } from "../support/database.ts";
import { adminToken, http, useE2e } from "../support/e2e.ts";
import { aBoughtLicense } from "../support/licenses.ts";

const db = useTestDatabase();
let offsetMs = 0;
const e2e = useE2e(db, {
  clock: () => new Date(Date.now() + offsetMs),
  env: { LICENSE_RATE_LIMIT_BURST: "100000", LICENSE_RATE_LIMIT_PER_SECOND: "100000" },
});

const aLicense = (config: object, quantity = 1) => aBoughtLicense(e2e, db, { config, quantity });

const call = (path: string, body: object) => http(e2e.url, "POST", `/api/licenses/${path}`, { body });
const machinesOf = async (key: string) =>
  (
    await db.current.sql<{ fingerprint: string }[]>`
      select a.fingerprint from license_activations a join licenses l on l.id = a.license_id
      where l.license_key = ${key} order by a.fingerprint`
  ).map((row) => row.fingerprint);

describe("the activation policy", () => {
  test("is validated with the driver's config: a floating license needs heartbeat_seconds", async () => {
    const refused = await http(e2e.url, "POST", "/api/admin/products", {
      token: await adminToken(e2e),
      body: aLicenseProduct({
        fulfillment_config: {
          license_type: "commercial",
          artifact_source: "https://downloads.example.com/app",
          max_activations: 5,
          floating: true,
          offline_checkout_max_days: 400,
        },
      }),
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "/fulfillment_config/heartbeat_seconds", code: "REQUIRED" }),
        expect.objectContaining({ path: "/fulfillment_config/offline_checkout_max_days", code: "OUT_OF_RANGE" }),
      ]),
    );
  });

  test("two hundred concurrent activations of a 5-seat floating pool yield exactly 5 machines", async () => {
    const { key } = await aLicense({ max_activations: 1, floating: true, heartbeat_seconds: 600 }, 5);
    // A client told 503 (the database busy past its connect time-out on a loaded machine) asks again,
    // as Retry-After says; what is under test is that no answer hands out a sixth seat.
    const activate = async (fingerprint: string) => {
      for (let attempt = 1; ; attempt++) {
        const answer = await call("activate", { license_key: key, fingerprint });
        if (answer.status !== 503 || attempt === 3) return answer;
        await Bun.sleep(500);
      }
    };
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => activate(`fp-${i}`)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status !== 200 && status !== 409)).toEqual([]);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 409)).toHaveLength(195);
    const refused = answers.find((answer) => answer.status === 409);
    expect(refused?.body).toMatchObject({ code: "ACTIVATION_LIMIT_REACHED" });
    expect(refused?.body.retry_after).toBeGreaterThan(590);
    expect(refused?.body.retry_after).toBeLessThanOrEqual(600);
    expect(await machinesOf(key)).toHaveLength(5);
  });
});

describe("heartbeats", () => {
  test("a floating machine that misses its heartbeat is released by the minute tick, and its seat goes to another", async () => {
    offsetMs = 0;
    const { key } = await aLicense({ max_activations: 2, floating: true, heartbeat_seconds: 300 });
    expect((await call("activate", { license_key: key, fingerprint: "fp-a" })).status).toBe(200);
    expect((await call("activate", { license_key: key, fingerprint: "fp-b" })).status).toBe(200);
    const full = await call("activate", { license_key: key, fingerprint: "fp-c" });
    expect(full).toMatchObject({ status: 409, body: { code: "ACTIVATION_LIMIT_REACHED" } });

    offsetMs = 200_000;
    const beat = await call("heartbeat", { license_key: key, fingerprint: "fp-b" });
    expect(beat.status).toBe(200);
    expect(Date.parse(beat.body.next_heartbeat_before) - (Date.now() + offsetMs)).toBeGreaterThan(295_000);

    offsetMs = 301_000;
    expect((await call("validate", { license_key: key, fingerprint: "fp-a" })).body).toMatchObject({
      valid: false,
      code: "HEARTBEAT_MISSED",
    });
    expect((await call("validate", { license_key: key, fingerprint: "fp-b" })).body).toMatchObject({
      valid: true,
      code: null,
    });
    expect(await e2e.marketplace.tick()).toEqual({ ran: true });
    expect(await machinesOf(key)).toEqual(["fp-b"]);
    const [released] = await db.current.sql<{ actor: string }[]>`
      select e.actor from license_events e join licenses l on l.id = e.license_id
      where l.license_key = ${key} and e.kind = 'released' and e.fingerprint = 'fp-a'`;
    expect(released?.actor).toBe("system");

    const late = await call("heartbeat", { license_key: key, fingerprint: "fp-a" });
    expect(late).toMatchObject({ status: 409, body: { code: "FINGERPRINT_NOT_ACTIVATED" } });
    expect((await call("activate", { license_key: key, fingerprint: "fp-c" })).status).toBe(200);
    offsetMs = 0;
  });
});

describe("offline license files", () => {
  /** The README's snippet, as the README shows it, written to a module and imported. */
  async function readmeSnippet() {
    const readme = await readFile(join(import.meta.dir, "../../README.md"), "utf8");
    const block = /<!-- license-file-check -->\n```ts\n([\s\S]*?)```\n<!-- \/license-file-check -->/.exec(readme)?.[1];
    if (!block) throw new Error("the README has no license-file-check snippet");
    const file = join(tmpdir(), `license-file-check-${crypto.randomUUID()}.ts`);
    await writeFile(file, block);
    try {
      return (await import(file)) as {
        checkLicenseFile(
          text: string,
          pem: string,
          productId: string,
          fingerprint: string,
        ): Promise<Record<string, unknown> | null>;
      };
    } finally {
      await rm(file);
    }
  }

  test("a checked-out file verifies offline with the README's snippet; tampered, for another machine or expired, it does not", async () => {
    const { key, productId } = await aLicense({ max_activations: 2, offline_checkout_max_days: 30 });
    const other = await aLicense({ max_activations: 1, offline_checkout_max_days: 30 });
    expect((await call("activate", { license_key: key, fingerprint: "fp-air" })).status).toBe(200);
    const checkout = await call("checkout", { license_key: key, fingerprint: "fp-air", ttl_days: 14 });
    expect(checkout.status).toBe(200);
    const pem = (await http(e2e.url, "GET", "/api/licenses/public-key")).body.public_key as string;
    const { checkLicenseFile } = await readmeSnippet();
    const text = checkout.body.license_file as string;

    const claims = await checkLicenseFile(text, pem, productId, "fp-air");
    expect(claims).toMatchObject({
      license_type: "regular",
      fingerprint: "fp-air",
      entitlements: ["download"],
      expires_at: checkout.body.expires_at,
    });
    const days = (Date.parse(String(claims?.expires_at)) - Date.parse(String(claims?.issued_at))) / 86_400_000;
    expect(days).toBe(14);

    const file = JSON.parse(text);
    const forged = { ...JSON.parse(Buffer.from(file.payload, "base64url").toString()), fingerprint: "fp-other" };
    const tampered = JSON.stringify({ ...file, payload: Buffer.from(JSON.stringify(forged)).toString("base64url") });
    expect(await checkLicenseFile(tampered, pem, productId, "fp-other")).toBeNull();
    expect(await checkLicenseFile(text, pem, productId, "fp-other")).toBeNull();
    expect(await checkLicenseFile(text, pem, other.productId, "fp-air")).toBeNull();
    expect(await checkLicenseFile("not a license file", pem, productId, "fp-air")).toBeNull();
    setSystemTime(new Date(Date.parse(checkout.body.expires_at) + 1));
    try {
      expect(await checkLicenseFile(text, pem, productId, "fp-air")).toBeNull();
    } finally {
      setSystemTime();
    }

    // Holding the file, the machine keeps its seat: the software cannot give it back to reuse it.
    const deactivated = await call("deactivate", { license_key: key, fingerprint: "fp-air" });
    expect(deactivated).toMatchObject({ status: 409, body: { code: "MACHINE_CHECKED_OUT" } });

    const tooLong = await call("checkout", { license_key: key, fingerprint: "fp-air", ttl_days: 31 });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors[0].path).toBe("/ttl_days");
    const stranger = await call("checkout", { license_key: key, fingerprint: "fp-unknown", ttl_days: 1 });
    expect(stranger).toMatchObject({ status: 409, body: { code: "FINGERPRINT_NOT_ACTIVATED" } });
  });

  test("a license whose policy allows no offline use refuses a checkout", async () => {
    const { key } = await aLicense({ max_activations: 1 });
    expect((await call("activate", { key, fingerprint: "fp-1" })).status).toBe(200);
    const refused = await call("checkout", { license_key: key, fingerprint: "fp-1", ttl_days: 1 });
    expect(refused).toMatchObject({ status: 409, body: { code: "OFFLINE_CHECKOUT_DISABLED" } });
    const neither = await call("checkout", { fingerprint: "fp-1", ttl_days: 1 });
    expect(neither.status).toBe(422);
  });
});
