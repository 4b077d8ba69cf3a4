import { describe, expect, test } from "bun:test";
import { createMailbox, MAILBOX_CAPACITY } from "../../../provider-sim/mail/mailbox.ts";
import type { ReceivedMail } from "../../../provider-sim/mail/received-mail.ts";

function aReceivedMail(overrides: Partial<ReceivedMail> = {}): ReceivedMail {
  return {
    id: "mail_1",
    received_at: "2026-01-31T10:00:00.000Z",
    envelope: { from: "shop@localhost", to: ["ada@example.com"] },
    from: "Marketplace <shop@localhost>",
    to: ["ada@example.com"],
    cc: [],
    subject: "Your workspace is ready",
    date: null,
    message_id: null,
    text: "Hello",
    html: null,
    headers: {},
    attachments: [],
    ...overrides,
  };
}

describe("createMailbox", () => {
  test(`keeps the newest ${MAILBOX_CAPACITY} messages, newest first, dropping the oldest`, () => {
    const mailbox = createMailbox();
    for (let n = 0; n <= MAILBOX_CAPACITY; n++) mailbox.add(aReceivedMail({ id: `mail_${n}` }));
    const listed = mailbox.list();
    expect(listed).toHaveLength(MAILBOX_CAPACITY);
    expect(listed[0]?.id).toBe(`mail_${MAILBOX_CAPACITY}`);
    expect(listed.at(-1)?.id).toBe("mail_1");
    expect(mailbox.find("mail_0")).toBeUndefined();
    expect(mailbox.find("mail_1")?.id).toBe("mail_1");
  });

  test("drops the oldest messages once the bodies pass the budget, but always keeps the newest", () => {
    const mailbox = createMailbox({ bodyBudget: 25 });
    mailbox.add(aReceivedMail({ id: "a", text: "x".repeat(10) }));
    mailbox.add(aReceivedMail({ id: "b", text: "x".repeat(5), html: "y".repeat(5) }));
    expect(mailbox.list().map((mail) => mail.id)).toEqual(["b", "a"]);
    mailbox.add(aReceivedMail({ id: "c", text: "x".repeat(10) }));
    expect(mailbox.list().map((mail) => mail.id)).toEqual(["c", "b"]);
    mailbox.add(aReceivedMail({ id: "huge", text: "x".repeat(100) }));
    expect(mailbox.list().map((mail) => mail.id)).toEqual(["huge"]);
    mailbox.add(aReceivedMail({ id: "d", text: "x" }));
    expect(mailbox.list().map((mail) => mail.id)).toEqual(["d"]);
  });

  test("clear empties the box and says how many it held", () => {
    const mailbox = createMailbox();
    mailbox.add(aReceivedMail({ id: "a" }));
    mailbox.add(aReceivedMail({ id: "b" }));
    expect(mailbox.clear()).toBe(2);
    expect(mailbox.list()).toEqual([]);
    expect(mailbox.clear()).toBe(0);
  });
});
