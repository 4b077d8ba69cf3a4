import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import type { Logger } from "../../kit/logger.ts";
import type { Mailbox } from "./mailbox.ts";
import { parseReceivedMail } from "./received-mail.ts";
import type { SmtpRefusals } from "./smtp-refusals.ts";

/** Larger messages are answered 552, as RFC 5321 has it; SIZE in EHLO tells clients up front. */
export const MESSAGE_SIZE_LIMIT = 10 * 1024 * 1024;
/** On close, connections still open (a client's idle pool) are told 421 and dropped after this. */
const CLOSE_TIMEOUT_MS = 1_000;

export interface SmtpListenerDeps {
  readonly host: string;
  /** 0 picks a free port; the listener reports the one it got. */
  readonly port: number;
  readonly mailbox: Mailbox;
  readonly refusals: SmtpRefusals;
  readonly logger: Logger;
  readonly wallTime: () => number;
}

export interface SmtpListener {
  readonly port: number;
  close(): Promise<void>;
}

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

/** The whole DATA of a message, or undefined when it went over the limit (the server answers 552 then). */
function readMessage(stream: SMTPServerDataStream): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => {
      if (!stream.sizeExceeded) chunks.push(chunk);
    });
    stream.once("end", () => resolve(stream.sizeExceeded ? undefined : Buffer.concat(chunks)));
    stream.once("error", reject);
  });
}

async function receive(stream: SMTPServerDataStream, session: SMTPServerSession, deps: SmtpListenerDeps) {
  const raw = await readMessage(stream);
  if (raw === undefined) return undefined;
  const refusal = deps.refusals.take();
  if (refusal !== undefined) {
    deps.logger.info({ code: refusal }, "mail refused by a simulated fault");
    throw smtpError(refusal, refusal < 500 ? "Simulated refusal, try again later" : "Simulated refusal");
  }
  const { mailFrom, rcptTo } = session.envelope;
  const mail = await parseReceivedMail(raw, {
    id: `mail_${randomBytes(12).toString("hex")}`,
    receivedAt: new Date(deps.wallTime()),
    envelope: { from: mailFrom ? mailFrom.address : null, to: rcptTo.map((recipient) => recipient.address) },
  }).catch(() => {
    throw smtpError(554, "Message could not be parsed");
  });
  deps.mailbox.add(mail);
  deps.logger.info({ mail_id: mail.id, recipients: mail.envelope.to.length, bytes: raw.length }, "mail received");
  return `OK: queued as ${mail.id}`;
}

/**
 * The mail sandbox's SMTP side: plain SMTP (no STARTTLS, it is meant for loopback), any
 * credentials or none, every accepted message parsed into the mailbox.
 */
export function startSmtpListener(deps: SmtpListenerDeps): Promise<SmtpListener> {
  const server = new SMTPServer({
    banner: "provider simulator mail sandbox",
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authOptional: true,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username ?? auth.method }),
    size: MESSAGE_SIZE_LIMIT,
    rejectOversized: true,
    disableReverseLookup: true,
    closeTimeout: CLOSE_TIMEOUT_MS,
    logger: false,
    onData: (stream, session, callback) =>
      void receive(stream, session, deps).then(
        (reply) => callback(null, reply),
        (error: Error) => callback(error),
      ),
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(deps.port, deps.host, () => {
      server.off("error", reject);
      // A client that drops or garbles its connection is its own problem, never the simulator's.
      server.on("error", (error) => deps.logger.debug({ err: error.message }, "smtp connection failed"));
      resolve({
        port: (server.server.address() as AddressInfo).port,
        close: () => new Promise((closed) => server.close(() => closed())),
      });
    });
  });
}
