import { UpstreamError } from "../../../application/shared/errors.ts";

/** Paddle answers 409 while a payment attempt on the transaction is in progress: ask again later. */
export class PaddleTransactionBusy extends UpstreamError {
  readonly transient = true;
  constructor() {
    super("gateway", "BUSY", "upstream_failed", "is processing a payment on the transaction; retry shortly.");
  }
}
