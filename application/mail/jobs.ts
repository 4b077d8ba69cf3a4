import { defineJob } from "../shared/jobs.ts";
import { EMAIL_MAX_ATTEMPTS } from "./ports.ts";

/**
 * Sends one queued email. Handled by `makeSendEmail` (send-email.ts). `ops` marks an email to
 * operations: if its job dies, that is logged, never alerted by another email.
 */
export const sendEmailJob = defineJob({
  kind: "send_email",
  read: (fields) => ({ email_id: fields.string("email_id"), ops: fields.boolean("ops", false) }),
  dedupeKey: ({ email_id }) => `email:${email_id}`,
  maxAttempts: EMAIL_MAX_ATTEMPTS,
});
