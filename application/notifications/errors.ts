import { fixedError } from "../../domain/shared/domain-error.ts";

export class NotificationNotFound extends fixedError(
  "NOTIFICATION_NOT_FOUND",
  "not_found",
  "No notification of yours has this id.",
) {}
