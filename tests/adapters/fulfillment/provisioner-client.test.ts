import { afterAll, expect, test } from "bun:test";
import { provisionInstallation } from "../../../adapters/fulfillment/provisioner-client.ts";
import { createGuardedFetch } from "../../../adapters/security/guarded-fetch.ts";
import { UpstreamUrlNotAllowed } from "../../../application/shared/errors.ts";
import { countingListener } from "../../support/counting-listener.ts";

const { hits, server: provisioner } = countingListener(() =>
  Response.json({ url: "https://acme.installs.example.com" }),
);
afterAll(() => provisioner.stop(true));

const request = {
  installation_id: crypto.randomUUID(),
  domain: "acme.installs.example.com",
  server_profile: "vm-small",
  resource_limits_profile: "limits-standard",
};

test("with the marketplace's guard, a loopback provisioner is refused permanently and never reached", async () => {
  const guarded = createGuardedFetch({ allowPrivate: false });
  const error = await provisionInstallation(`http://127.0.0.1:${provisioner.port}/provision`, request, guarded).catch(
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UpstreamUrlNotAllowed);
  expect(error).toMatchObject({ code: "URL_NOT_ALLOWED", transient: false });
  expect(hits).toEqual([]);
});

test("with private addresses allowed the same provisioner answers", async () => {
  const open = createGuardedFetch({ allowPrivate: true });
  const url = await provisionInstallation(`http://127.0.0.1:${provisioner.port}/provision`, request, open);
  expect(url).toBe("https://acme.installs.example.com");
  expect(hits).toEqual(["/provision"]);
});
