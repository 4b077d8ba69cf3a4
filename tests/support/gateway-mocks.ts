import { HttpResponse, http } from "msw";
import { GATEWAY_TEST_ENV } from "./gateway-env.ts";

const PADDLE = GATEWAY_TEST_ENV.GATEWAY_A_SANDBOX_BASE_URL;
const STRIPE = GATEWAY_TEST_ENV.GATEWAY_B_SANDBOX_BASE_URL;

export interface RecordedCall {
  readonly method: string;
  readonly path: string;
  readonly body: string;
  readonly authorization: string | null;
}

/** Minimal checkout endpoints of both gateways that record what the marketplace sent. */
export function checkoutHandlers(calls: RecordedCall[]) {
  const record = async (request: Request) => {
    const url = new URL(request.url);
    calls.push({
      method: request.method,
      path: url.pathname,
      body: await request.text(),
      authorization: request.headers.get("authorization"),
    });
  };
  let sequence = 0;
  return [
    // The buyer is a known Paddle customer; the checkout looks it up before the transaction (not recorded).
    http.get(`${PADDLE}/customers`, ({ request }) =>
      HttpResponse.json({
        data: [{ id: "ctm_01buyer", email: new URL(request.url).searchParams.get("email"), status: "active" }],
        meta: { request_id: "req" },
      }),
    ),
    http.post(`${PADDLE}/transactions`, async ({ request }) => {
      await record(request);
      const id = `txn_${++sequence}`;
      return HttpResponse.json({
        data: { id, status: "ready", checkout: { url: `https://checkout.paddle.test/${id}` } },
        meta: { request_id: "req" },
      });
    }),
    http.post(`${STRIPE}/v1/checkout/sessions`, async ({ request }) => {
      await record(request);
      const id = `cs_test_${++sequence}`;
      return HttpResponse.json({ id, object: "checkout.session", url: `https://checkout.stripe.test/c/pay/${id}` });
    }),
  ];
}
