import { DomainError } from "../../domain/shared/domain-error.ts";

/** A template that cannot be read, or a value it needs that the email lacks: no retry fixes it. */
export class EmailTemplateInvalid extends DomainError {
  readonly code = "EMAIL_TEMPLATE_INVALID";
  readonly category = "conflict";
  readonly transient = false;
}

/** The mail server refused the message for good (an SMTP 5xx): sending it again would not help. */
export class MailRejected extends DomainError {
  readonly code = "MAIL_REJECTED";
  readonly category = "upstream_failed";
  readonly transient = false;
}

/** The mail server could not take the message now (down, slow, a 4xx): worth another try later. */
export class MailUnavailable extends DomainError {
  readonly code = "MAIL_UNAVAILABLE";
  readonly category = "upstream_failed";
  readonly transient = true;
}
