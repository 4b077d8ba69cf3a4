import { describe, expect, test } from "bun:test";
import { sendEmailJob } from "../../../application/mail/jobs.ts";
import { EMAIL_MAX_ATTEMPTS } from "../../../application/mail/ports.ts";
import { PermanentJobFailure } from "../../../application/shared/errors.ts";
import { enqueued } from "../../support/jobs.ts";

describe("the send-email job", () => {
  test("one per email, with the email's own attempt limit", () => {
    expect(enqueued(sendEmailJob({ email_id: "m-1", ops: true }))).toEqual({
      kind: "send_email",
      payload: { email_id: "m-1", ops: true },
      dedupeKey: "email:m-1",
      maxAttempts: EMAIL_MAX_ATTEMPTS,
    });
  });

  test("a job stored without `ops` is a customer's email; one naming no email is dead at once", () => {
    expect(sendEmailJob.read({ email_id: "m-1" })).toEqual({ email_id: "m-1", ops: false });
    expect(() => sendEmailJob.read({ ops: true })).toThrow(PermanentJobFailure);
  });
});
