import { describe, expect, test } from "bun:test";
import { createSmtpRefusals } from "../../../provider-sim/mail/smtp-refusals.ts";

describe("createSmtpRefusals", () => {
  test("each queued refusal answers its `count` messages in turn, then nothing is refused", () => {
    const refusals = createSmtpRefusals();
    refusals.enqueue({ count: 2, code: 451 });
    refusals.enqueue({ count: 1, code: 550 });
    expect([refusals.take(), refusals.take(), refusals.take(), refusals.take()]).toEqual([451, 451, 550, undefined]);
  });

  test("clear drops every queued refusal", () => {
    const refusals = createSmtpRefusals();
    refusals.enqueue({ count: 3, code: 421 });
    refusals.clear();
    expect(refusals.take()).toBeUndefined();
  });
});
