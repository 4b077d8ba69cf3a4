import { createApiClient } from "../shared/api.ts";
import { createSessionStore } from "../shared/session.ts";

/** The admin console's session (its own entry, apart from a customer's) and its API client. */
export const session = createSessionStore("marketplace.admin_token");
export const api = createApiClient(session);
