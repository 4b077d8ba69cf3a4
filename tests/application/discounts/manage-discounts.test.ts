import { describe, expect, test } from "bun:test";
import { makeManageDiscounts } from "../../../application/discounts/manage-discounts.ts";
import { createInMemoryDiscounts } from "../../support/fakes/in-memory-discounts.ts";

const NOW = new Date("2026-06-01T12:00:00.000Z");
const ADMIN = "a-1";

function setup() {
  const discounts = createInMemoryDiscounts(() => NOW);
  return { discounts, manage: makeManageDiscounts({ discounts, clock: () => NOW, currency: "USD" }) };
}

describe("managing discounts", () => {
  test("a code an active discount has, in any case, is DISCOUNT_CODE_TAKEN at /code", async () => {
    const { manage } = setup();
    await manage.createDiscount({ code: "Launch", type: "percent", amount: 1000, duration: "once" }, ADMIN);
    await expect(
      manage.createDiscount({ code: "LAUNCH", type: "fixed", amount: 100, duration: "forever" }, ADMIN),
    ).rejects.toMatchObject({ code: "DISCOUNT_CODE_TAKEN", errors: [{ path: "/code" }] });
  });

  test("each write is audited with what it set or changed; a second disable writes nothing", async () => {
    const { manage, discounts } = setup();
    const created = await manage.createDiscount(
      { code: "Partner", type: "fixed", amount: 500, duration: "repeating", duration_in_months: 2 },
      ADMIN,
    );
    expect(created.state).toBe("active");
    await manage.updateDiscount(created.id, { max_redemptions: 3, expires_at: "2026-12-31T00:00:00Z" }, ADMIN);
    await manage.disableDiscount(created.id, ADMIN);
    expect((await manage.disableDiscount(created.id, ADMIN)).state).toBe("disabled");
    expect(discounts.audit()).toEqual([
      expect.objectContaining({
        action: "discount.create",
        target_type: "discount",
        summary: expect.objectContaining({ code: "Partner", amount: 500, currency: "USD", duration_in_months: 2 }),
      }),
      expect.objectContaining({
        action: "discount.update",
        summary: {
          changes: {
            max_redemptions: { from: null, to: 3 },
            expires_at: { from: null, to: "2026-12-31T00:00:00.000Z" },
          },
        },
      }),
      expect.objectContaining({ action: "discount.disable" }),
    ]);
  });

  test("a disabled discount changes no more; its limit never drops below what was redeemed", async () => {
    const { manage, discounts } = setup();
    const created = await manage.createDiscount(
      { code: "Spring", type: "percent", amount: 500, duration: "once" },
      ADMIN,
    );
    discounts.redeem(created.id, 4);
    await expect(manage.updateDiscount(created.id, { max_redemptions: 3 }, ADMIN)).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      errors: [{ path: "/max_redemptions", code: "BELOW_REDEMPTIONS" }],
    });
    expect((await manage.updateDiscount(created.id, { max_redemptions: 4 }, ADMIN)).state).toBe("used_up");
    await manage.disableDiscount(created.id, ADMIN);
    await expect(manage.updateDiscount(created.id, { max_redemptions: 9 }, ADMIN)).rejects.toMatchObject({
      code: "DISCOUNT_DISABLED",
    });
    await expect(manage.getDiscount("missing")).rejects.toMatchObject({ code: "DISCOUNT_NOT_FOUND" });
  });
});
