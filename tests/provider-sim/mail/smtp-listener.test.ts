import { describe, expect, test } from "bun:test";
import { portInUseMessage } from "../../../kit/port-in-use.ts";
import { MESSAGE_SIZE_LIMIT } from "../../../provider-sim/mail/smtp-listener.ts";
import { createTestSim } from "../harness.ts";
import { aMessage, rawSmtp, sendCode, useMailSims } from "./harness.ts";

const mailSim = useMailSims();

describe("the mail sandbox's SMTP listener", () => {
  test("accepts a text and HTML message with any credentials (PLAIN or LOGIN) and without any, keeping both parts", async () => {
    const sim = await mailSim();
    const login = sim.transport({ user: "someone", pass: "whatever" }, "LOGIN");
    expect(await sendCode(login, aMessage({ subject: "with AUTH LOGIN" }))).toBe(250);
    const plain = sim.transport({ user: "shop", pass: "anything at all" }, "PLAIN");
    expect(await sendCode(plain, aMessage({ subject: "with auth" }))).toBe(250);
    expect(await sendCode(sim.transport(), aMessage({ subject: "without auth", bcc: "ops@localhost" }))).toBe(250);

    const plainToken = Buffer.from("\0user\0pass").toString("base64");
    const conversation = await rawSmtp(sim.smtp.port, ["EHLO client.test\r\n", `AUTH PLAIN ${plainToken}\r\n`]);
    expect(conversation).toContain("AUTH LOGIN PLAIN");
    expect(conversation).not.toContain("STARTTLS");
    expect(conversation).toMatch(/\r\n235 /);

    const [withoutAuth, authenticated, loggedIn] = await sim.inbox();
    expect(loggedIn?.subject).toBe("with AUTH LOGIN");
    expect(authenticated).toMatchObject({
      subject: "with auth",
      from: "Marketplace <shop@localhost>",
      to: ["ada@example.com"],
      text: "Open https://pos.test/w/1",
      html: "<p>Open <a href='https://pos.test/w/1'>your workspace</a></p>",
      envelope: { from: "shop@localhost", to: ["ada@example.com"] },
      message_id: expect.stringMatching(/^<.+>$/),
      date: expect.any(String),
    });
    // A Bcc recipient is in the envelope only, as a real server sees it.
    expect(withoutAuth?.to).toEqual(["ada@example.com"]);
    expect(withoutAuth?.envelope.to).toEqual(["ada@example.com", "ops@localhost"]);
    expect(withoutAuth?.headers).not.toHaveProperty("bcc");
  });

  test("a refusal fault answers the next `count` messages 4xx, then accepts again; only the accepted one is kept", async () => {
    const sim = await mailSim();
    const armed = await sim.call("POST", "/__sim/mail/faults", { body: { count: 2 } });
    expect(armed).toMatchObject({ status: 201, body: { count: 2, code: 451 } });
    const transport = sim.transport();
    const codes = [];
    for (const subject of ["first", "second", "third"]) codes.push(await sendCode(transport, aMessage({ subject })));
    expect(codes).toEqual([451, 451, 250]);
    expect((await sim.inbox()).map((mail) => mail.subject)).toEqual(["third"]);

    await sim.call("POST", "/__sim/mail/faults", { body: { count: 1, code: 550 } });
    expect(await sendCode(transport, aMessage())).toBe(550);
    expect(await sendCode(transport, aMessage())).toBe(250);
  });

  test(`a message over ${MESSAGE_SIZE_LIMIT} bytes is refused 552 and not kept; the next one goes through`, async () => {
    const sim = await mailSim();
    const transport = sim.transport();
    const oversized = aMessage({ subject: "huge", text: "x".repeat(MESSAGE_SIZE_LIMIT + 1) });
    expect(await sendCode(transport, oversized)).toBe(552);
    // Declared up front (RFC 1870), it is refused before any byte of the message is sent.
    const declared = await rawSmtp(sim.smtp.port, [
      "EHLO client.test\r\n",
      `MAIL FROM:<a@example.com> SIZE=${MESSAGE_SIZE_LIMIT + 1}\r\n`,
    ]);
    expect(declared).toContain(`SIZE ${MESSAGE_SIZE_LIMIT}`);
    expect(declared).toMatch(/\r\n552 /);
    expect(await sendCode(transport, aMessage({ subject: "small" }))).toBe(250);
    expect((await sim.inbox()).map((mail) => mail.subject)).toEqual(["small"]);
  });

  test("keeps only the newest messages once the box is full", async () => {
    const sim = await mailSim({ mailboxCapacity: 3 });
    const transport = sim.transport();
    for (const n of [1, 2, 3, 4, 5]) expect(await sendCode(transport, aMessage({ subject: `mail ${n}` }))).toBe(250);
    expect((await sim.inbox()).map((mail) => mail.subject)).toEqual(["mail 5", "mail 4", "mail 3"]);
  });

  test("non-ASCII headers and bodies arrive decoded; headers are listed as sent", async () => {
    const sim = await mailSim();
    const message = aMessage({
      from: "Zoë Café <zoe@example.com>",
      subject: "Ваш заказ готов ✓",
      text: "Grüße",
      headers: { "X-Idempotency-Key": "notification-42" },
    });
    expect(await sendCode(sim.transport(), message)).toBe(250);
    const [mail] = await sim.inbox();
    expect(mail).toMatchObject({ from: "Zoë Café <zoe@example.com>", subject: "Ваш заказ готов ✓", text: "Grüße" });
    expect(mail?.headers["x-idempotency-key"]).toBe("notification-42");
  });

  test("a port already in use fails to listen with the error the one-line message is made from", async () => {
    const sim = await mailSim();
    const second = createTestSim({ PROVIDER_SIM_SMTP_PORT: String(sim.smtp.port), HOST: "127.0.0.1" });
    const thrown = await second.listenForMail().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(portInUseMessage(thrown, sim.smtp.port, "PROVIDER_SIM_SMTP_PORT")).toBe(
      `port ${sim.smtp.port} (PROVIDER_SIM_SMTP_PORT) is already in use; stop what holds it or set PROVIDER_SIM_SMTP_PORT to a free port.`,
    );
  });
});
