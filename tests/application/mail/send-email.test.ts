import { describe, expect, test } from "bun:test";
import { MailRejected, MailUnavailable } from "../../../application/mail/errors.ts";
import type { EmailStore, Mailer, OutgoingMessage, StoredEmail } from "../../../application/mail/ports.ts";
import { makeSendEmail } from "../../../application/mail/send-email.ts";
import { parseEmailTemplate } from "../../../application/mail/templates.ts";
import { firstRun } from "../../support/jobs.ts";

const TEMPLATE = parseEmailTemplate("x", "subject: Hi {{name}}\n--- text\nHello {{name}}\n--- html\n<p>{{name}}</p>\n");
const TEMPLATES = {
  "fulfillment.ready": TEMPLATE,
  "fulfillment.failed": TEMPLATE,
  "fulfillment.action_required": TEMPLATE,
  "subscription.payment_failed": TEMPLATE,
  "subscription.trial_ending": TEMPLATE,
  "subscription.renewed": TEMPLATE,
  "subscription.plan_changed": TEMPLATE,
  "fulfillment.ready_license": TEMPLATE,
  "license.suspended": TEMPLATE,
  "license.reinstated": TEMPLATE,
  "license.reissued": TEMPLATE,
  "ops.job_dead": TEMPLATE,
  "ops.order_needs_attention": TEMPLATE,
  "ops.task_overdue": TEMPLATE,
  "ops.secret_destination": TEMPLATE,
  "account.password_reset": TEMPLATE,
  "account.verify_email": TEMPLATE,
  "account.confirm_email_change": TEMPLATE,
  "account.email_changed": TEMPLATE,
};
const CONTEXT = firstRun({ jobId: "1", maxAttempts: 3 });

function setUp(failures: Error[] = []) {
  const emails = new Map<string, StoredEmail & { last_error?: string }>();
  emails.set("e-1", {
    id: "e-1",
    key: "notification:n-1",
    template: "fulfillment.ready",
    to: "ada@example.com",
    data: { name: "Ada & <co>" },
    message_id: "<m-1@shop.example>",
    state: "pending",
  });
  const store: EmailStore = {
    find: async (id) => emails.get(id),
    async markSent(id) {
      const email = emails.get(id);
      if (email && email.state !== "sent") emails.set(id, { ...email, state: "sent" });
    },
    async markDead(id, error) {
      const email = emails.get(id);
      if (email && email.state !== "sent") emails.set(id, { ...email, state: "dead", last_error: error });
    },
  };
  const sent: OutgoingMessage[] = [];
  const mailer: Mailer = {
    async send(message) {
      const failure = failures.shift();
      if (failure) throw failure;
      sent.push(message);
    },
  };
  return { emails, sent, send: makeSendEmail({ emails: store, mailer, templates: TEMPLATES }) };
}

describe("the send-email job", () => {
  test("renders and sends the email once with its own Message-ID, then marks it sent", async () => {
    const { emails, sent, send } = setUp();
    await send({ email_id: "e-1", ops: false }, CONTEXT);
    await send({ email_id: "e-1", ops: false }, CONTEXT);
    expect(sent).toEqual([
      {
        messageId: "<m-1@shop.example>",
        to: "ada@example.com",
        subject: "Hi Ada & <co>",
        text: "Hello Ada & <co>\n",
        html: "<p>Ada &amp; &lt;co&gt;</p>\n",
      },
    ]);
    expect(emails.get("e-1")?.state).toBe("sent");
  });

  test("a server not taking it now: the job retries and the email stays pending", async () => {
    const { emails, sent, send } = setUp([new MailUnavailable("451 busy")]);
    await expect(send({ email_id: "e-1", ops: false }, CONTEXT)).rejects.toBeInstanceOf(MailUnavailable);
    expect(emails.get("e-1")?.state).toBe("pending");
    await send({ email_id: "e-1", ops: false }, { ...CONTEXT, attempt: 2 });
    expect(sent).toHaveLength(1);
    expect(emails.get("e-1")?.state).toBe("sent");
  });

  test("a refusal for good, or the last attempt failing, marks it dead with the reason", async () => {
    const refused = setUp([new MailRejected("550 no such mailbox")]);
    await expect(refused.send({ email_id: "e-1", ops: false }, CONTEXT)).rejects.toBeInstanceOf(MailRejected);
    expect(refused.emails.get("e-1")).toMatchObject({ state: "dead", last_error: expect.stringContaining("550") });

    const exhausted = setUp([new MailUnavailable("timeout")]);
    await expect(exhausted.send({ email_id: "e-1", ops: false }, { ...CONTEXT, lastAttempt: true })).rejects.toThrow(
      "timeout",
    );
    expect(exhausted.emails.get("e-1")?.state).toBe("dead");
  });

  test("a recipient that is not one mailbox (a list, from before addresses were checked) is never sent", async () => {
    const { emails, sent, send } = setUp();
    const email = emails.get("e-1");
    if (email) emails.set("e-1", { ...email, to: "x,eve@victim.example" });
    await expect(send({ email_id: "e-1", ops: false }, CONTEXT)).rejects.toMatchObject({ transient: false });
    expect(sent).toEqual([]);
    expect(emails.get("e-1")).toMatchObject({ state: "dead", last_error: expect.stringContaining("not one mailbox") });
  });

  test("an unknown email is a permanent failure", async () => {
    const { sent, send } = setUp();
    await expect(send({ email_id: "nope", ops: false }, CONTEXT)).rejects.toMatchObject({ transient: false });
    expect(sent).toEqual([]);
  });

  test("a dead email whose job is redriven is sent once the server is back, and then marked sent", async () => {
    const { emails, sent, send } = setUp([new MailUnavailable("down")]);
    await expect(send({ email_id: "e-1", ops: false }, { ...CONTEXT, lastAttempt: true })).rejects.toThrow("down");
    expect(emails.get("e-1")?.state).toBe("dead");
    await send({ email_id: "e-1", ops: false }, CONTEXT);
    expect(sent).toHaveLength(1);
    expect(emails.get("e-1")?.state).toBe("sent");
  });
});
