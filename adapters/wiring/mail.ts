import { sendEmailJob } from "../../application/mail/jobs.ts";
import type { EmailQueue, EmailTemplate } from "../../application/mail/ports.ts";
import { makeSendEmail } from "../../application/mail/send-email.ts";
import { type EmailTemplateText, parseEmailTemplate } from "../../application/mail/templates.ts";
import { PermanentJobFailure } from "../../application/shared/errors.ts";
import { readEmailTemplates } from "../mail/email-templates.ts";
import { createSmtpMailer } from "../mail/smtp-mailer.ts";
import { createPostgresEmailStore, createPostgresStandaloneEmailQueue } from "../postgres/email-queue.ts";
import type { MarketplaceJobHandlers } from "./job-kinds.ts";
import type { Platform } from "./platform.ts";

/** Every template parsed: a broken one stops the start instead of failing each email. */
export function parseEmailTemplates(sources: Record<EmailTemplate, string>): Record<EmailTemplate, EmailTemplateText> {
  const entries = Object.entries(sources).map(([name, source]) => [name, parseEmailTemplate(name, source)]);
  return Object.fromEntries(entries) as Record<EmailTemplate, EmailTemplateText>;
}

/** Without SMTP nothing queues an email; one queued while it was set waits dead for a redrive. */
const mailIsOff = async () => {
  throw new PermanentJobFailure("Email is off (SMTP_URL or MAIL_FROM unset): nothing can send it.");
};

/**
 * Email over SMTP when `SMTP_URL` is set: the queue notifications write to and the job that sends.
 * Without it there is no mail: notifications stay in the log and the customer's list.
 */
export function wireMail({ config, sql, jobsFor, mailDomain }: Platform): {
  readonly queue: EmailQueue | undefined;
  readonly useCases: Record<string, never>;
  readonly jobs: Pick<MarketplaceJobHandlers, typeof sendEmailJob.kind>;
  close(): void;
} {
  const { smtpUrl, from } = config.mail;
  if (!smtpUrl || !from)
    return { queue: undefined, useCases: {}, jobs: { [sendEmailJob.kind]: mailIsOff }, close() {} };
  const mailer = createSmtpMailer({ url: smtpUrl, from });
  return {
    queue: createPostgresStandaloneEmailQueue(sql, jobsFor, mailDomain),
    useCases: {},
    jobs: {
      [sendEmailJob.kind]: makeSendEmail({
        emails: createPostgresEmailStore(sql),
        mailer,
        templates: parseEmailTemplates(readEmailTemplates()),
      }),
    },
    close: () => mailer.close(),
  };
}

export type MailFeature = ReturnType<typeof wireMail>;
