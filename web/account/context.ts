import { createApiClient } from "../shared/api.ts";
import { createSessionStore } from "../shared/session.ts";

/** Shared with the order status page, so a customer signed in there is signed in here. */
export const session = createSessionStore("marketplace.customer_token");
export const api = createApiClient(session);
