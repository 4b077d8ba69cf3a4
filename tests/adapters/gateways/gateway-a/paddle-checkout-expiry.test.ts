import { describe, expect, test } from "bun:test";
import { delay, HttpResponse, http, passthrough } from "msw";
import { PaddleTransactionBusy } from "../../../../adapters/gateways/gateway-a/errors.ts";
import { createPaddleGateway } from "../../../../adapters/gateways/gateway-a/paddle-client.ts";
import {
  UpstreamBadResponse,
  type UpstreamError,
  UpstreamRateLimited,
  UpstreamRejected,
  UpstreamServerError,
  UpstreamTimeout,
  UpstreamUnreachable,
} from "../../../../application/shared/errors.ts";
import { freePort } from "../../../../scripts/lib/postgres-cluster.ts";
import { createStaticGatewaySettings } from "../../../support/fakes/static-gateway-settings.ts";
import { aTransaction, BASE, failure, ok, paddleError, useMockPaddle } from "./paddle-fixtures.ts";

const server = useMockPaddle();

const gateway = (patch: Parameters<ReturnType<typeof createStaticGatewaySettings>["set"]>[1] = {}) => {
  const settings = createStaticGatewaySettings();
  settings.set("gateway_a", patch);
  return createPaddleGateway({ settings });
};
const TRANSACTION = `${BASE}/transactions/txn_01`;
const immutable = () => paddleError(400, "transaction_immutable", "Cannot update immutable transaction");
const expire = (g = gateway()) => failure(g.expireCheckout("txn_01")) as Promise<UpstreamError>;

describe("expireCheckout at Paddle", () => {
  test("a ready transaction is cancelled with PATCH /transactions/{id} and the status alone", async () => {
    const bodies: unknown[] = [];
    server.use(
      http.patch(TRANSACTION, async ({ request }) => {
        bodies.push(await request.json());
        return ok(aTransaction({ status: "canceled" }));
      }),
    );
    expect(await gateway().expireCheckout("txn_01")).toEqual({ closed_now: true, status: "canceled" });
    expect(bodies).toEqual([{ status: "canceled" }]);
  });

  test.each(["completed", "paid", "billed", "canceled"])(
    "a transaction already %s is refused, read back, and closed",
    async (status) => {
      server.use(
        http.patch(TRANSACTION, immutable),
        http.get(TRANSACTION, () => ok(aTransaction({ status }))),
      );
      expect(await gateway().expireCheckout("txn_01")).toEqual({ closed_now: false, status });
    },
  );

  test("a refusal of a transaction still ready is passed on, for good", async () => {
    server.use(
      http.patch(TRANSACTION, () => paddleError(400, "bad_request", "Invalid request.")),
      http.get(TRANSACTION, () => ok(aTransaction({ status: "ready" }))),
    );
    const error = await expire();
    expect(error).toBeInstanceOf(UpstreamRejected);
    expect(error).toMatchObject({ status: 400, upstreamCode: "bad_request", transient: false });
  });

  test("a transaction Paddle does not know cannot be paid either", async () => {
    server.use(http.patch(TRANSACTION, () => paddleError(404, "not_found", "Entity txn_01 not found.")));
    expect(await gateway().expireCheckout("txn_01")).toEqual({ closed_now: false, status: "not_found" });
  });

  test("a payment in progress (409) is retried later", async () => {
    server.use(
      http.patch(TRANSACTION, () =>
        paddleError(409, "transaction_immutable_while_processing_payment", "Payment attempt in progress."),
      ),
    );
    const error = await expire();
    expect(error).toBeInstanceOf(PaddleTransactionBusy);
    expect(error).toMatchObject({ code: "GATEWAY_BUSY", transient: true });
  });

  test("a 403 is refused for good", async () => {
    server.use(http.patch(TRANSACTION, () => paddleError(403, "forbidden")));
    expect(await expire()).toMatchObject({ code: "GATEWAY_AUTH_FAILED", transient: false });
  });

  test.each([
    ["a 500", () => paddleError(500, "internal_error"), UpstreamServerError],
    ["a 502 without a body", () => new HttpResponse(null, { status: 502 }), UpstreamServerError],
    [
      "a 429 with Retry-After",
      () => new HttpResponse(null, { status: 429, headers: { "retry-after": "7" } }),
      UpstreamRateLimited,
    ],
    [
      "a body that is not JSON",
      () => new HttpResponse("<html>maintenance</html>", { status: 200 }),
      UpstreamBadResponse,
    ],
    ["JSON without the data envelope", () => HttpResponse.json({ id: "txn_01" }), UpstreamBadResponse],
    ["a status Paddle does not have", () => ok(aTransaction({ status: "gone" })), UpstreamBadResponse],
    ["a transaction still ready after cancelling", () => ok(aTransaction({ status: "ready" })), UpstreamBadResponse],
  ])("%s is a transient failure: the job retries it", async (_, reply, type) => {
    server.use(http.patch(TRANSACTION, reply));
    const error = await expire();
    expect(error).toBeInstanceOf(type);
    expect(error.transient).toBeTrue();
  });

  test("Retry-After of a 429 is kept for the job's backoff", async () => {
    server.use(http.patch(TRANSACTION, () => new HttpResponse(null, { status: 429, headers: { "retry-after": "7" } })));
    expect(await expire()).toMatchObject({ retryAfterMs: 7000 });
  });

  test("the read-back failing is a failure too", async () => {
    server.use(
      http.patch(TRANSACTION, immutable),
      http.get(TRANSACTION, () => paddleError(503, "service_unavailable")),
    );
    expect(await expire()).toBeInstanceOf(UpstreamServerError);
  });

  test("a time-out", async () => {
    server.use(
      http.patch(TRANSACTION, async () => {
        await delay(1000);
        return ok(aTransaction({ status: "canceled" }));
      }),
    );
    const error = await expire(gateway({ timeout_seconds: 0.2 }));
    expect(error).toBeInstanceOf(UpstreamTimeout);
    expect(error.transient).toBeTrue();
  });

  test("a refused connection is unreachable, and worth retrying", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    server.use(http.all(`${closed}/*`, () => passthrough()));
    const error = await expire(gateway({ base_url: closed }));
    expect(error).toBeInstanceOf(UpstreamUnreachable);
    expect(error.transient).toBeTrue();
  });
});
