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
