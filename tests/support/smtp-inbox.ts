import { afterAll, beforeAll } from "bun:test";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { freePort } from "../../scripts/lib/postgres-cluster.ts";

/** Logging in with this password is refused (535), as with wrong credentials. */
export const REFUSED_PASSWORD = "wrong-password";

export interface ReceivedMail {
  readonly messageId: string;
  readonly from: string;
  readonly to: readonly string[];
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/**
 * A real SMTP server in the test process: what reaches it is parsed and kept. `refuse(n, code)`
 * answers the next `n` messages with `code` at end of data, as a server under trouble does.
 */
export async function startSmtpInbox(listenPort = 0) {
  const received: ReceivedMail[] = [];
  let refusals: { left: number; code: number; recipient: string | undefined; text: string } = {
    left: 0,
    code: 451,
    recipient: undefined,
    text: "try again later",
  };
  const logins: string[] = [];
  const attemptsTo = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth: (auth, _session, callback) =>
      logins.push(`${auth.username}:${auth.password}`) && auth.password === REFUSED_PASSWORD
        ? callback(Object.assign(new Error("Invalid credentials"), { responseCode: 535 }))
        : callback(null, { user: auth.username ?? "test" }),
    onData(stream, session, callback) {
      const recipients = session.envelope.rcptTo.map((rcpt) => rcpt.address);
      for (const recipient of recipients) attemptsTo.set(recipient, (attemptsTo.get(recipient) ?? 0) + 1);
      simpleParser(stream)
        .then((mail) => {
          if (refusals.left > 0 && (refusals.recipient === undefined || recipients.includes(refusals.recipient))) {
            refusals = { ...refusals, left: refusals.left - 1 };
            const error = Object.assign(new Error(refusals.text), { responseCode: refusals.code });
            callback(error);
            return;
          }
          const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
          received.push({
            messageId: mail.messageId ?? "",
            from: mail.from?.text ?? "",
            to: to.flatMap((address) => address.value.map((entry) => entry.address ?? "")),
            subject: mail.subject ?? "",
            text: mail.text ?? "",
            html: typeof mail.html === "string" ? mail.html : "",
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(listenPort, "127.0.0.1", resolve));
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    url: `smtp://test:secret@127.0.0.1:${port}`,
    received,
    /** Every DATA for `address`, refused or not. */
    attemptsTo: (address: string) => attemptsTo.get(address) ?? 0,
    to: (address: string) => received.filter((mail) => mail.to.includes(address)),
    /** Refuses the next `count` messages (to `recipient` only, when given) with `code` and `text`. */
    refuse(count: number, code = 451, recipient?: string, text = "try again later") {
      refusals = { left: count, code, recipient, text };
    },
    /** Every `user:password` a client logged in with. */
    logins: () => [...logins],
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpInbox = Awaited<ReturnType<typeof startSmtpInbox>>;

/**
 * A test file's own SMTP inbox on a port of its own, started before its tests and stopped after;
 * `env` points a marketplace's mail at it. Call at the top of the file.
 */
export async function useSmtpInbox() {
  const port = await freePort();
  let started: SmtpInbox | undefined;
  beforeAll(async () => {
    started = await startSmtpInbox(port);
  });
  afterAll(() => started?.stop());
  return {
    port,
    env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: "Example Shop <shop@shop.example>" },
    /** The running inbox; only inside a test or a hook. */
    get inbox(): SmtpInbox {
      if (!started) throw new Error("the SMTP inbox is used before its file's tests started");
      return started;
    },
  };
}
