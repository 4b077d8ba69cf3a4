import { type EmailQueue, type EmailTemplate, SEND_EMAIL_JOB } from "../../application/mail/ports.ts";
import { makeSendEmail } from "../../application/mail/send-email.ts";
import { type EmailTemplateText, parseEmailTemplate } from "../../application/mail/templates.ts";
import type { JobHandler } from "../../application/shared/jobs.ts";
import { readEmailTemplates } from "../mail/email-templates.ts";
import { createSmtpMailer } from "../mail/smtp-mailer.ts";
import { createPostgresEmailOutbox, createPostgresEmailStore } from "../postgres/email-store.ts";
import type { Platform } from "./platform.ts";

/** Every template parsed: a broken one stops the start instead of failing each email. */
export function parseEmailTemplates(sources: Record<EmailTemplate, string>): Record<EmailTemplate, EmailTemplateText> {
  const entries = Object.entries(sources).map(([name, source]) => [name, parseEmailTemplate(name, source)]);
  return Object.fromEntries(entries) as Record<EmailTemplate, EmailTemplateText>;
}

/**
 * Email over SMTP when `SMTP_URL` is set: the queue notifications write to and the job that sends.
 * Without it there is no mail: notifications stay in the log and the customer's list.
 */
export function wireMail({ config, sql, jobsFor, mailDomain }: Platform): {
  readonly queue: EmailQueue | undefined;
  readonly routes: Record<string, never>;
  readonly jobs: Readonly<Record<string, JobHandler>>;
  close(): void;
} {
  const { smtpUrl, from } = config.mail;
  if (!smtpUrl || !from) return { queue: undefined, routes: {}, jobs: {}, close() {} };
  const mailer = createSmtpMailer({ url: smtpUrl, from });
  return {
    queue: createPostgresEmailOutbox(sql, jobsFor, mailDomain),
    routes: {},
    jobs: {
      [SEND_EMAIL_JOB]: makeSendEmail({
        emails: createPostgresEmailStore(sql),
        mailer,
        templates: parseEmailTemplates(readEmailTemplates()),
      }),
    },
    close: () => mailer.close(),
  };
}

export type MailFeature = ReturnType<typeof wireMail>;
