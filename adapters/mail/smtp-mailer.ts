import nodemailer from "nodemailer";
import { type Mailer, MailRejected, MailUnavailable } from "../../application/mail/ports.ts";

export interface SmtpMailerOptions {
  /** `smtp://user:pass@host:port`, or `smtps://` for TLS from the first byte. */
  readonly url: string;
  readonly from: string;
  /** Connecting, the greeting and each command's answer: a silent server fails the attempt. */
  readonly timeoutMs?: number;
}

interface SmtpFailure {
  readonly code?: string;
  readonly responseCode?: number;
  readonly message?: string;
}

/** An SMTP 5xx is a refusal for good, but a failed login (535): credentials can be fixed. */
function classify(error: unknown): Error {
  const failure = (error ?? {}) as SmtpFailure;
  const reason = failure.message ?? String(error);
  const code = failure.responseCode;
  if (code !== undefined && code >= 500 && failure.code !== "EAUTH") {
    return new MailRejected(`The mail server refused the message: ${reason}`);
  }
  return new MailUnavailable(`The mail server did not take the message: ${reason}`);
}

/** Sends through one SMTP server with nodemailer; the Message-ID given is kept, so a resend is recognisable. */
export function createSmtpMailer(options: SmtpMailerOptions): Mailer & { close(): void } {
  const timeout = options.timeoutMs ?? 10_000;
  const transport = nodemailer.createTransport({
    url: options.url,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    async send(message) {
      try {
        await transport.sendMail({
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
    close: () => transport.close(),
  };
}
