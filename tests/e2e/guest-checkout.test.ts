import { describe, expect, test } from "bun:test";
import { useTestDatabase } from "../support/database.ts";
import {
  buyAndPay,
  createProduct,
  eventually,
  fulfillmentReaches,
  http,
  posProductFor,
  registerCustomer,
  useE2e,
} from "../support/e2e.ts";
import { useSmtpInbox } from "../support/smtp-inbox.ts";

const smtp = await useSmtpInbox();
const db = useTestDatabase();
const e2e = useE2e(db, { env: smtp.env });

const aGuestAddress = () => `guest-${crypto.randomUUID()}@example.com`;
const PASSWORD = "a guest's own password";

/** The ready email of `orderId` to `email`, once it arrived. */
async function readyEmail(email: string, orderId: string) {
  return eventually(
    async () => smtp.inbox.to(email).find((m) => m.subject.endsWith("is ready") && m.text.includes(orderId)),
    8000,
    `the ready email of ${orderId}`,
  );
}

const linkIn = (text: string, path: string) =>
  new URL(new RegExp(`https?://\\S+${path.replaceAll("/", "\\/")}\\S*`).exec(text)?.[0] ?? "http://missing/");

async function buyAsGuest(email: string, product: { id: string }) {
  const bought = await buyAndPay(
    e2e,
    { email, name: "Grace" },
    [{ product_id: product.id, variant: "monthly" }],
    "gateway_b",
  );
  await fulfillmentReaches(db, bought.orderId, "active");
  return bought;
}

const ownerOf = async (orderId: string) =>
  (await db.current.sql<{ customer_id: string }[]>`select customer_id from orders where id = ${orderId}`)[0]
    ?.customer_id;

describe("guest checkout, end to end", () => {
  test("a guest pays, follows the order by its signed link, sets a password from the email and finds both orders", async () => {
    const product = await createProduct(e2e, posProductFor(e2e));
    const email = aGuestAddress();
    const first = await buyAsGuest(email, product);
    const second = await buyAsGuest(email, product);

    const mail = await readyEmail(email, first.orderId);
    const orderLink = linkIn(mail.text, `/orders/${first.orderId}`);
    const access = orderLink.searchParams.get("access") ?? "";
    expect(new URL(first.statusUrl).searchParams.get("access")).toBe(access);
    const status = await http(e2e.url, "GET", `/api/orders/${first.orderId}/status`, {
      headers: { "order-access": access },
    });
    expect(status.status).toBe(200);
    expect(status.body.order).toMatchObject({ id: first.orderId, status: "paid" });
    expect(status.body.order.customer_id).toBeUndefined();
    expect(status.body.items).toEqual([expect.objectContaining({ order_id: first.orderId, status: "active" })]);
    // The access opens its own order only, and a wrong one is the same 404 as an unknown order.
    for (const [id, given] of [
      [second.orderId, access],
      [first.orderId, "0".repeat(64)],
      [first.orderId, undefined],
    ] as const) {
      const refused = await http(e2e.url, "GET", `/api/orders/${id}/status`, {
        headers: given ? { "order-access": given } : {},
      });
      expect([refused.status, refused.body.code]).toEqual([404, "ORDER_NOT_FOUND"]);
    }
    const page = await fetch(orderLink);
    expect(page.status).toBe(200);

    const claimLink = linkIn(mail.text, "/account/claim");
    const claimed = await http(e2e.url, "POST", "/api/auth/claim", {
      body: { token: claimLink.searchParams.get("token"), password: PASSWORD },
    });
    expect(claimed.status).toBe(200);
    expect(claimed.body.user).toMatchObject({ email, guest: false, email_verified: true, name: "Grace" });
    const orders = await http(e2e.url, "GET", "/api/orders", { token: claimed.body.token });
    expect(orders.body.items.map((o: { id: string }) => o.id).sort()).toEqual([first.orderId, second.orderId].sort());
    const signIn = await http(e2e.url, "POST", "/api/auth/login", { body: { email, password: PASSWORD } });
    expect(signIn.status).toBe(200);

    // The second order's link was spent with the first: the orders are in the account already.
    const secondLink = linkIn((await readyEmail(email, second.orderId)).text, "/account/claim");
    const again = await http(e2e.url, "POST", "/api/auth/claim", {
      body: { token: secondLink.searchParams.get("token"), password: "another password entirely" },
    });
    expect([again.status, again.body.code]).toEqual([400, "EMAIL_LINK_INVALID"]);

    // Bought again as a guest, the order goes straight to the account, and its email says to sign in.
    const third = await buyAsGuest(email, product);
    expect(await ownerOf(third.orderId)).toBe(claimed.body.user.id);
    const thirdMail = await readyEmail(email, third.orderId);
    expect(thirdMail.text).not.toContain("/account/claim");
    expect(thirdMail.text).toContain("Your account");
  });

  test("an account that never proved the address sees a guest's order only once it verifies", async () => {
    const product = await createProduct(e2e, posProductFor(e2e));
    const customer = await registerCustomer(e2e);
    const { email } = (await http(e2e.url, "GET", "/api/me", { token: customer.token })).body;
    const bought = await buyAsGuest(email, product);
    expect(await ownerOf(bought.orderId)).not.toBe(customer.id);
    expect((await http(e2e.url, "GET", "/api/orders", { token: customer.token })).body.items).toEqual([]);

    const verify = await eventually(
      async () => smtp.inbox.to(email).find((m) => m.subject === "Confirm your email address"),
      8000,
      "the verification email",
    );
    const token = linkIn(verify.text, "/account/verify-email").searchParams.get("token");
    expect((await http(e2e.url, "POST", "/api/auth/verify-email/confirm", { body: { token } })).status).toBe(204);
    expect(await ownerOf(bought.orderId)).toBe(customer.id);
    const orders = await http(e2e.url, "GET", "/api/orders", { token: customer.token });
    expect(orders.body.items.map((o: { id: string }) => o.id)).toEqual([bought.orderId]);
    const [left] = await db.current.sql<{ n: number }[]>`
      select count(*)::int as n from users where guest and lower(email) = lower(${email})`;
    expect(left?.n).toBe(0);
  });

  test("the mailbox wins: a claim link takes over an unproven account with the address and ends its sessions", async () => {
    const product = await createProduct(e2e, posProductFor(e2e));
    const squatter = await registerCustomer(e2e);
    const { email } = (await http(e2e.url, "GET", "/api/me", { token: squatter.token })).body;
    const bought = await buyAsGuest(email, product);
    const claimLink = linkIn((await readyEmail(email, bought.orderId)).text, "/account/claim");
    const claimed = await http(e2e.url, "POST", "/api/auth/claim", {
      body: { token: claimLink.searchParams.get("token"), password: PASSWORD },
    });
    expect(claimed.status).toBe(200);
    expect(claimed.body.user.id).toBe(squatter.id);
    expect((await http(e2e.url, "GET", "/api/me", { token: squatter.token })).status).toBe(401);
    const orders = await http(e2e.url, "GET", "/api/orders", { token: claimed.body.token });
    expect(orders.body.items.map((o: { id: string }) => o.id)).toEqual([bought.orderId]);
  });
});
