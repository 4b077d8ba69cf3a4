import { defineJob } from "../shared/jobs.ts";

/**
 * Sends a password reset link to `email`, if an account has that address. Handled by
 * `makeSendPasswordReset` (password-reset.ts). A second request for one address while the first is
 * pending is that one.
 */
export const passwordResetJob = defineJob({
  kind: "password_reset",
  read: (fields) => ({ email: fields.string("email") }),
  dedupeKey: ({ email }) => `password-reset:${email}`,
});

/**
 * Sends a link to `email` that proves the account receives mail there: `verify` for its own
 * address, `change` for the address it is moving to. Handled by `makeSendEmailLink`
 * (email-links.ts).
 */
export const emailLinkJob = defineJob({
  kind: "email_link",
  read: (fields) => ({
    user_id: fields.string("user_id"),
    email: fields.string("email"),
    purpose: fields.oneOf("purpose", ["verify", "change"] as const),
  }),
  dedupeKey: ({ user_id, purpose, email }) => `email-link:${user_id}:${purpose}:${email}`,
});

/**
 * Tells an account's previous address that the account moved to `email`. Handled by
 * `makeSendEmailChangedNotice` (email-links.ts).
 */
export const emailChangedJob = defineJob({
  kind: "email_changed",
  read: (fields) => ({
    user_id: fields.string("user_id"),
    previous_email: fields.string("previous_email"),
    email: fields.string("email"),
  }),
  dedupeKey: ({ user_id, email }) => `email-changed:${user_id}:${email}`,
});
