import type { Transporter } from "nodemailer";
import { MailRejected, MailUnavailable } from "../../application/mail/errors.ts";
import type { Mailer } from "../../application/mail/ports.ts";

export interface SmtpMailerOptions {
  /** `smtp://user:pass@host:port`, or `smtps://` for TLS from the first byte. */
  readonly url: string;
  readonly from: string;
  /** Connecting, the greeting and each command's answer: a silent server fails the attempt. */
  readonly timeoutMs?: number;
  /** Refuse to go on without STARTTLS; by default when the URL carries credentials to another host. */
  readonly requireTls?: boolean;
}

interface SmtpFailure {
  readonly code?: string;
  readonly responseCode?: number;
  readonly response?: string;
  readonly message?: string;
}

/**
 * Authentication, relaying or TLS refused (530, 535, an enhanced status 5.7.x, no STARTTLS where it
 * is required): our setup, which can be fixed.
 */
const isSetupRefusal = (failure: SmtpFailure) =>
  failure.code === "EAUTH" ||
  failure.code === "ETLS" ||
  failure.responseCode === 530 ||
  /\b5\.7\.\d{1,3}\b/.test(failure.response ?? "");

/** An SMTP 5xx is a refusal of this message for good, unless it refuses our login or relaying. */
function classify(error: unknown): Error {
  const failure = (error ?? {}) as SmtpFailure;
  const reason = failure.message ?? String(error);
  const code = failure.responseCode;
  if (code !== undefined && code >= 500 && !isSetupRefusal(failure)) {
    return new MailRejected(`The mail server refused the message: ${reason}`);
  }
  return new MailUnavailable(`The mail server did not take the message: ${reason}`);
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/**
 * Credentials over `smtp://` to another host must go through STARTTLS: without it, anyone on the
 * path could strip the server's offer of TLS and read the login.
 */
export function requiresStartTls(url: string): boolean {
  const parsed = new URL(url);
  return parsed.protocol === "smtp:" && parsed.username !== "" && !LOOPBACK.has(parsed.hostname);
}

/**
 * Sends through one SMTP server with nodemailer; the Message-ID given is kept, so a resend is
 * recognisable. nodemailer (about 4 MB resident) is loaded with the first message, not at start.
 */
export function createSmtpMailer(options: SmtpMailerOptions): Mailer & { close(): void } {
  const timeout = options.timeoutMs ?? 10_000;
  let transport: Transporter | undefined;
  let opening: Promise<Transporter> | undefined;
  let closed = false;
  const open = async () => {
    const { default: nodemailer } = await import("nodemailer");
    const created = nodemailer.createTransport({
      url: options.url,
      requireTLS: options.requireTls ?? requiresStartTls(options.url),
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
      disableFileAccess: true,
      disableUrlAccess: true,
    });
    // Closed while it was loading: the transport is closed too, and the send goes on without a pool.
    if (closed) created.close();
    else transport = created;
    return created;
  };
  return {
    async send(message) {
      try {
        // A start that failed is tried again with the next message.
        opening ??= open().catch((error: unknown) => {
          opening = undefined;
          throw error;
        });
        await (await opening).sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          messageId: message.messageId,
        });
      } catch (error) {
        throw classify(error);
      }
    },
    close() {
      closed = true;
      transport?.close();
    },
  };
}
