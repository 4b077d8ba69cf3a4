import { emailAddressFault } from "../../domain/shared/email-address.ts";
import { PermanentJobFailure } from "../shared/errors.ts";
import type { JobHandler } from "../shared/jobs.ts";
import type { sendEmailJob } from "./jobs.ts";
import type { EmailStore, EmailTemplate, Mailer } from "./ports.ts";
import { type EmailTemplateText, renderEmail } from "./templates.ts";

/**
 * The send-email job: renders a queued email and hands it to the mail server, then marks it sent.
 * A refusal for good, or the last attempt failing, marks it dead (the job is dead-lettered too, and
 * redriving it sends the email again); anything else retries with the queue's backoff. Sent once per
 * key: a sent email is never sent again.
 */
export function makeSendEmail(deps: {
  readonly emails: EmailStore;
  readonly mailer: Mailer;
  readonly templates: Readonly<Record<EmailTemplate, EmailTemplateText>>;
}): JobHandler<typeof sendEmailJob> {
  return async function sendEmail({ email_id }, context) {
    const email = await deps.emails.find(email_id);
    if (!email) throw new PermanentJobFailure(`email ${email_id} does not exist`);
    if (email.state === "sent") return;
    // An account registered before addresses were checked may hold a list (`x,eve@victim.example`):
    // its mail goes nowhere rather than to whoever the list names.
    const fault = emailAddressFault(email.to);
    if (fault) {
      const reason = `the recipient is not one mailbox (${fault})`;
      await deps.emails.markDead(email.id, reason);
      throw new PermanentJobFailure(reason);
    }
    try {
      const rendered = renderEmail(deps.templates[email.template], email.data);
      await deps.mailer.send({ messageId: email.message_id, to: email.to, ...rendered });
    } catch (error) {
      const permanent = (error as { transient?: unknown }).transient === false;
      if (permanent || context.lastAttempt) await deps.emails.markDead(email.id, String(error));
      throw error;
    }
    await deps.emails.markSent(email.id);
  };
}
