import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createSmtpMailer, requiresStartTls } from "../../../adapters/mail/smtp-mailer.ts";
import { MailRejected, MailUnavailable } from "../../../application/mail/errors.ts";
import { freePort } from "../../../scripts/lib/postgres-cluster.ts";
import { REFUSED_PASSWORD, type SmtpInbox, startSmtpInbox } from "../../support/smtp-inbox.ts";

const MESSAGE = {
  messageId: "<fixed-id@shop.example>",
  to: "ada@example.com",
  subject: "Your Point of Sale is ready",
  text: "Delivered.\n",
  html: "<p>Delivered.</p>\n",
};

let inbox: SmtpInbox;
beforeAll(async () => {
  inbox = await startSmtpInbox();
});
afterAll(() => inbox.stop());

/** A TCP server that answers every connection with `greet` (or nothing), then stays silent. */
function rawServer(greet: string | undefined) {
  return Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(socket) {
        if (greet !== undefined) socket.write(greet);
      },
      data() {},
    },
  });
}

const mailerFor = (url: string, timeoutMs = 2000) =>
  createSmtpMailer({ url, from: "Shop <shop@shop.example>", timeoutMs });

describe("the SMTP mailer", () => {
  test("sends a text and an HTML part from MAIL_FROM, keeping the Message-ID it is given", async () => {
    const mailer = mailerFor(inbox.url);
    await mailer.send(MESSAGE);
    mailer.close();
    const [mail] = inbox.to("ada@example.com");
    expect(mail).toEqual({
      messageId: "<fixed-id@shop.example>",
      from: '"Shop" <shop@shop.example>',
      to: ["ada@example.com"],
      subject: MESSAGE.subject,
      text: MESSAGE.text,
      html: MESSAGE.html,
    });
  });

  test("a 4xx is worth another try; a 5xx is a refusal for good", async () => {
    const mailer = mailerFor(inbox.url);
    inbox.refuse(1, 451, "temp@example.com");
    const temporary = await mailer.send({ ...MESSAGE, to: "temp@example.com" }).catch((error) => error);
    expect(temporary).toBeInstanceOf(MailUnavailable);
    expect(temporary.transient).toBeTrue();
    inbox.refuse(1, 550, "gone@example.com");
    const permanent = await mailer.send({ ...MESSAGE, to: "gone@example.com" }).catch((error) => error);
    expect(permanent).toBeInstanceOf(MailRejected);
    expect(permanent.transient).toBeFalse();
    expect(permanent.message).toContain("550");
    mailer.close();
  });

  test("a refused relay (5.7.x) is our setup, worth another try once fixed", async () => {
    const mailer = mailerFor(inbox.url);
    inbox.refuse(1, 550, "relay@example.com", "5.7.1 Relaying denied");
    const error = await mailer.send({ ...MESSAGE, to: "relay@example.com" }).catch((failure) => failure);
    mailer.close();
    expect(error).toBeInstanceOf(MailUnavailable);
    expect(error.message).toContain("5.7.1");
  });

  test("credentials over smtp:// to another host require STARTTLS; loopback and smtps:// do not", () => {
    expect(requiresStartTls("smtp://shop:pass@mail.example.com:587")).toBeTrue();
    expect(requiresStartTls("smtp://mail.example.com:25")).toBeFalse();
    expect(requiresStartTls("smtp://shop:pass@127.0.0.1:1025")).toBeFalse();
    expect(requiresStartTls("smtp://shop:pass@localhost:1025")).toBeFalse();
    expect(requiresStartTls("smtps://shop:pass@mail.example.com:465")).toBeFalse();
  });

  test("a server that offers no STARTTLS never sees the login when TLS is required", async () => {
    const started = performance.now();
    const error = await createSmtpMailer({
      url: `smtp://shop:smtp-password@127.0.0.1:${inbox.port}`,
      from: "shop@shop.example",
      timeoutMs: 2000,
      requireTls: true,
    })
      .send({ ...MESSAGE, to: "tls@example.com" })
      .catch((failure) => failure);
    expect(error).toBeInstanceOf(MailUnavailable);
    expect(inbox.to("tls@example.com")).toEqual([]);
    expect(inbox.logins()).not.toContain("smtp-password");
    expect(performance.now() - started).toBeLessThan(3000);
  });

  test("failed login is retried (credentials can be fixed), and the password never shows in the error", async () => {
    const url = inbox.url.replace("secret", REFUSED_PASSWORD);
    const error = await mailerFor(url)
      .send(MESSAGE)
      .catch((failure) => failure);
    expect(error).toBeInstanceOf(MailUnavailable);
    expect(error.message).not.toContain(REFUSED_PASSWORD);
  });

  test("connection refused, a silent server, and a server speaking nonsense: each fails the attempt in time", async () => {
    const closed = await freePort();
    const refused = await mailerFor(`smtp://127.0.0.1:${closed}`)
      .send(MESSAGE)
      .catch((error) => error);
    expect(refused).toBeInstanceOf(MailUnavailable);

    const silent = rawServer(undefined);
    const started = performance.now();
    const timedOut = await mailerFor(`smtp://127.0.0.1:${silent.port}`, 500)
      .send(MESSAGE)
      .catch((error) => error);
    expect(timedOut).toBeInstanceOf(MailUnavailable);
    expect(performance.now() - started).toBeLessThan(3000);
    silent.stop(true);

    const garbage = rawServer("HTTP/1.1 200 OK\r\n\r\n\u0000\u00ff<html>\r\n");
    const nonsense = await mailerFor(`smtp://127.0.0.1:${garbage.port}`, 500)
      .send(MESSAGE)
      .catch((error) => error);
    expect(nonsense).toBeInstanceOf(MailUnavailable);
    garbage.stop(true);
  });
});
