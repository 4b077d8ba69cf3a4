import { describe, expect, test } from "bun:test";
import { customerEmail } from "../../../application/notifications/customer-email.ts";
import type { FulfillmentMailFacts, NotificationOutboxMessage } from "../../../application/notifications/ports.ts";

const FACTS: FulfillmentMailFacts = {
  customer_id: "cus-ada",
  customer_guest: false,
  customer_email: "ada@example.com",
  customer_name: "Ada",
  product_name: "Point of Sale",
  order_id: "o-1",
  driver: "multitenant_saas",
  workspace_url: "https://acme.pos.example/",
  attempts: 1,
  awaiting: null,
  license_key: null,
  entitlement_id: null,
};
const message = (kind: NotificationOutboxMessage["kind"]): NotificationOutboxMessage => ({
  id: "n-1",
  kind,
  payload: {},
  dispatched_at: null,
});
const BASE = "https://shop.example/";

describe("the customer's delivery email", () => {
  test("ready with a workspace: open it, and the order's page under the public base URL", () => {
    expect(customerEmail(message("fulfillment.ready"), FACTS, BASE)).toEqual({
      key: "notification:n-1",
      template: "fulfillment.ready",
      to: "ada@example.com",
      data: {
        customer_name: "Ada",
        product_name: "Point of Sale",
        order_url: "https://shop.example/orders/o-1",
        action_label: "Open your workspace",
        action_url: "https://acme.pos.example/",
        attempts: "1",
        account_label: "Your account",
        account_url: "https://shop.example/account",
      },
    });
  });

  test("a guest's email links the order by its signed access and offers to set a password", () => {
    const guest = {
      orderUrl: "https://shop.example/orders/o-1?access=abc",
      claimUrl: "https://shop.example/account/claim?token=t",
    };
    const license = customerEmail(
      message("fulfillment.ready"),
      { ...FACTS, customer_guest: true, driver: "license_download", workspace_url: null },
      BASE,
      guest,
    );
    expect(license.data).toMatchObject({
      order_url: guest.orderUrl,
      action_url: guest.orderUrl,
      account_label: expect.stringContaining("Set a password"),
      account_url: guest.claimUrl,
    });
    const held = customerEmail(
      message("fulfillment.action_required"),
      { ...FACTS, customer_guest: true, awaiting: "verify_email" },
      BASE,
      guest,
    );
    expect(held.data).toMatchObject({ action_url: guest.orderUrl, account_url: guest.claimUrl });
  });

  test("a dedicated installation is opened as such; a license points at the order page for the download", () => {
    const installation = customerEmail(
      message("fulfillment.ready"),
      { ...FACTS, driver: "singletenant_provisioning" },
      BASE,
    );
    expect(installation.data.action_label).toBe("Open your installation");
    const license = customerEmail(
      message("fulfillment.ready"),
      { ...FACTS, driver: "license_download", workspace_url: null },
      BASE,
    );
    expect(license.data).toMatchObject({
      action_label: expect.stringContaining("Download the release"),
      action_url: "https://shop.example/orders/o-1",
    });
  });

  test("a workspace address that is not a web link is never put in a link", () => {
    for (const workspace_url of ["javascript:alert(1)", "data:text/html,x", "https://a b", ""]) {
      const email = customerEmail(message("fulfillment.ready"), { ...FACTS, workspace_url }, BASE);
      expect(email.data.action_url).toBe("https://shop.example/orders/o-1");
    }
  });

  test("failed: the attempts made, and the retry on the order page; the order id is encoded into the path", () => {
    const email = customerEmail(message("fulfillment.failed"), { ...FACTS, attempts: 8, order_id: "a/b?c" }, BASE);
    expect(email.template).toBe("fulfillment.failed");
    expect(email.data).toMatchObject({
      attempts: "8",
      action_label: "Try the delivery again from your order page",
      action_url: "https://shop.example/orders/a%2Fb%3Fc",
    });
  });

  test("waiting for the customer: what to give, on the order page", () => {
    const email = customerEmail(message("fulfillment.action_required"), { ...FACTS, workspace_url: null }, BASE);
    expect(email.template).toBe("fulfillment.action_required");
    expect(email.data).toMatchObject({
      action_label: expect.stringContaining("domain"),
      action_url: "https://shop.example/orders/o-1",
    });
  });

  test("held for a verified address: open the emailed link, or ask for one on the account page", () => {
    const facts = { ...FACTS, workspace_url: null, awaiting: "verify_email" };
    const email = customerEmail(message("fulfillment.action_required"), facts, BASE);
    expect(email.data).toMatchObject({
      action_label: expect.stringContaining("Confirm your email address"),
      action_url: "https://shop.example/account",
    });
  });
});
