/** The emails the shop sends, one template (text and HTML) per name. */
export const EMAIL_TEMPLATES = [
  "fulfillment.ready",
  "fulfillment.ready_license",
  "fulfillment.failed",
  "fulfillment.action_required",
  "subscription.payment_failed",
  "subscription.trial_ending",
  "subscription.renewed",
  "subscription.plan_changed",
  "license.suspended",
  "license.reinstated",
  "license.reissued",
  "ops.job_dead",
  "ops.order_needs_attention",
  "ops.task_overdue",
  "ops.secret_destination",
  "account.password_reset",
  "account.verify_email",
  "account.confirm_email_change",
  "account.email_changed",
] as const;

export type EmailTemplate = (typeof EMAIL_TEMPLATES)[number];

/**
 * Template values that carry a credential (a reset, verification, change-of-address or a guest's
 * set-a-password link, a signed link to a billing portal, an invoice or a download, a license key): kept in the stored email only until it is sent or given up on, then
 * erased, so the database never keeps a usable link.
 */
export const CREDENTIAL_VALUES = [
  "reset_url",
  "verify_url",
  "confirm_url",
  "account_url",
  "portal_url",
  "invoice_url",
  "download_url",
  "license_key",
] as const;

/** An email to send, queued in the caller's transaction. */
export interface NewEmail {
  /** At most one email per key, ever: a second `queue` with the same key is ignored. */
  readonly key: string;
  readonly template: EmailTemplate;
  readonly to: string;
  /** The template's values. Strings are escaped in the HTML part. */
  readonly data: Readonly<Record<string, string>>;
}

export interface EmailQueue {
  /** Stores the email and schedules its sending; nothing when the key was queued before. */
  queue(email: NewEmail): Promise<void>;
}

/** An email as stored: what the sending job reads. */
export interface StoredEmail extends NewEmail {
  readonly id: string;
  /** The Message-ID header, fixed when queued, so a message sent again is recognisably the same. */
  readonly message_id: string;
  readonly state: "pending" | "sent" | "dead";
}

export interface EmailStore {
  find(id: string): Promise<StoredEmail | undefined>;
  /** Pending or dead (a redriven email) becomes sent; sent stays as it was. Its `CREDENTIAL_VALUES` are erased. */
  markSent(id: string): Promise<void>;
  /**
   * Pending or dead takes this error; a sent email is never dead. Its `CREDENTIAL_VALUES` are erased,
   * so a redriven reset email fails for good: the customer asks for a new link.
   */
  markDead(id: string, error: string): Promise<void>;
}

/** An email's three parts, its template filled in. */
export interface RenderedEmail {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** A rendered message, ready for the wire. */
export interface OutgoingMessage extends RenderedEmail {
  readonly messageId: string;
  readonly to: string;
}

/** Sends over SMTP: `MailRejected` when the server refuses for good, `MailUnavailable` otherwise. */
export interface Mailer {
  send(message: OutgoingMessage): Promise<void>;
}

/**
 * Attempts per email: at the default backoff (1 s doubling to a 5-minute cap, full jitter) up to
 * about an hour and a half of a mail server's outage before the email is dead and operations are
 * alerted; redriving its job then sends it.
 */
export const EMAIL_MAX_ATTEMPTS = 24;
