/**
 * The page checkout returns the customer to (`/orders/{id}`): sign in, then follow the order's
 * items to delivery. It holds no session of its own: the account console's session store, under the
 * same key, so signing in on either signs in on both; every call is the public API. A guest's link
 * carries the order's signed `access` instead, which opens this one order without signing in.
 */
import { type ApiClient, createApiClient, messageOf, type Schemas, unwrap } from "../shared/api.ts";
import { formatMoney, humanize, safeHref } from "../shared/format.ts";
import { decodeSegment } from "../shared/router.ts";
import { createSessionStore } from "../shared/session.ts";

type DashboardItem = Schemas["DashboardItem"];
type NextAction = Schemas["NextAction"];

const REFRESH_MS = 3000;
const IN_PROGRESS = new Set(["queued", "processing"]);
/** Links a browser can follow; the other actions are API calls made from a button or a form. */
const NAVIGABLE = new Set<NextAction["kind"]>(["pay", "open_workspace", "download"]);

const session = createSessionStore("marketplace.customer_token");
const api: ApiClient = createApiClient(session);
const orderId = decodeSegment(location.pathname.split("/")[2] ?? "");
const query = new URLSearchParams(location.search);
const checkout = query.get("checkout");
const access = query.get("access");
const byId = (id: string) => document.getElementById(id) as HTMLElement;
let timer: ReturnType<typeof setTimeout> | undefined;

function show(section: "signin" | "order" | "message") {
  for (const id of ["signin", "order", "message"]) byId(id).hidden = id !== section;
}

function say(text: string) {
  byId("message").textContent = text;
  show("message");
}

function signIn(note = "") {
  clearTimeout(timer);
  byId("signin-note").textContent = note;
  show("signin");
}

/** The calls an action makes carry the bearer token, so they go to this site's API only. */
const apiPath = (url: string | undefined) => (url?.startsWith("/api/") ? url : undefined);

/**
 * `POST` to a path the API named in a next action (the typed client knows only the paths it lists),
 * with `control` disabled meanwhile; a refusal is said in `note`, and the order is drawn again.
 */
async function post(path: string, control: HTMLButtonElement, note: HTMLElement, body?: object) {
  const token = session.current()?.token;
  control.disabled = true;
  note.textContent = "";
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (!response.ok) {
      const problem = (await response.json().catch(() => undefined)) as { detail?: string } | undefined;
      note.textContent = problem?.detail ?? `The marketplace answered ${response.status}.`;
      return;
    }
    await refresh();
  } catch {
    note.textContent = "The marketplace cannot be reached; try again in a moment.";
  } finally {
    control.disabled = false;
  }
}

const noteFor = () => Object.assign(document.createElement("span"), { className: "note", role: "status" });

function actionCell(action: NextAction | undefined): HTMLTableCellElement {
  const cell = document.createElement("td");
  if (!action) return cell;
  const target = safeHref(action.url);
  // A guest has no session for the API's actions: they wait until a password is set from the email.
  const path = access ? undefined : apiPath(action.url);
  if (target && NAVIGABLE.has(action.kind)) {
    const link = Object.assign(document.createElement("a"), { href: target, textContent: action.label });
    if (action.kind !== "download") Object.assign(link, { target: "_blank", rel: "noopener" });
    cell.append(link);
  } else if (path && action.kind === "retry") {
    const button = Object.assign(document.createElement("button"), { type: "button", textContent: action.label });
    const note = noteFor();
    button.addEventListener("click", () => post(path, button, note));
    cell.append(button, " ", note);
  } else if (path && action.kind === "verify_email") {
    const button = Object.assign(document.createElement("button"), { type: "button", textContent: "Send a new link" });
    const note = noteFor();
    button.addEventListener("click", () => post(path, button, note));
    cell.append(action.label, " ", button, " ", note);
  } else if (path && action.kind === "provide_domain") {
    const form = document.createElement("form");
    const input = Object.assign(document.createElement("input"), { name: "domain", required: true });
    input.setAttribute("aria-label", "Domain");
    const save = Object.assign(document.createElement("button"), { textContent: "Save" });
    const note = noteFor();
    form.append(action.label, " ", input, save, " ", note);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      void post(path, save, note, { domain: input.value });
    });
    cell.append(form);
  } else {
    cell.textContent = action.label;
  }
  return cell;
}

/**
 * The invoice or receipt of one payment, asked of the API (which asks the gateway: Paddle's links
 * expire after an hour), then opened; a guest's link has no session to ask with.
 */
function invoiceCell(payment: Schemas["Payment"]): HTMLTableCellElement {
  const cell = document.createElement("td");
  if (access) {
    cell.textContent = "Set a password from your email to see it";
    return cell;
  }
  const button = Object.assign(document.createElement("button"), { type: "button", textContent: "Invoice" });
  const note = noteFor();
  button.addEventListener("click", async () => {
    button.disabled = true;
    note.textContent = "";
    try {
      const answer = await unwrap(
        api.GET("/api/orders/{id}/payments/{payment_id}/invoice", {
          params: { path: { id: orderId, payment_id: payment.id } },
        }),
      );
      const target = safeHref(answer.url);
      if (target) location.assign(target);
      else note.textContent = "The gateway's invoice address cannot be opened.";
    } catch (error) {
      note.textContent = messageOf(error);
    } finally {
      button.disabled = false;
    }
  });
  cell.append(button, " ", note);
  return cell;
}

function renderPayments(payments: readonly Schemas["Payment"][]) {
  byId("payments-section").hidden = payments.length === 0;
  byId("payments").replaceChildren(
    ...payments.map((payment) => {
      const row = document.createElement("tr");
      const when = Object.assign(document.createElement("td"), {
        textContent: new Date(payment.created_at).toLocaleDateString(),
      });
      const amount = Object.assign(document.createElement("td"), {
        textContent: formatMoney(payment.amount, payment.currency),
      });
      row.append(when, amount, invoiceCell(payment));
      return row;
    }),
  );
}

/** Draws the order; answers whether something is still to come without the customer doing anything. */
function render(
  order: Schemas["OrderDetails"] | Schemas["GuestOrderDetails"],
  dashboardItems: readonly DashboardItem[],
): boolean {
  byId("order-id").textContent = order.id;
  byId("order-status").textContent = humanize(order.status);
  byId("order-total").textContent =
    order.discount_code && order.discount_total > 0
      ? `${formatMoney(order.total, order.currency)} (code ${order.discount_code}: ${formatMoney(order.discount_total, order.currency)} off)`
      : formatMoney(order.total, order.currency);
  const rows = order.items.map((item) => {
    const shown = dashboardItems.find((d) => d.order_item_id === item.id);
    const status = shown?.status ?? item.fulfillment?.status ?? "pending_payment";
    const row = document.createElement("tr");
    row.dataset.itemId = item.id;
    const name = Object.assign(document.createElement("td"), { textContent: `${item.product_name} (${item.variant})` });
    const state = Object.assign(document.createElement("td"), { className: "status", textContent: status });
    row.append(name, state, actionCell(shown?.next_action));
    return { row, pending: IN_PROGRESS.has(status) || shown?.next_action.kind === "wait" };
  });
  byId("items").replaceChildren(...rows.map((r) => r.row));
  renderPayments(order.payments);
  show("order");
  // A cancelled checkout leaves the order unpaid on purpose: nothing will change without the customer.
  const waitingForPayment = order.status === "pending_payment" && checkout !== "cancelled";
  return waitingForPayment || rows.some((r) => r.pending);
}

/** Draws the order again in a few seconds while something is still to come. */
function followUp(pending: boolean) {
  byId("refresh-note").textContent = pending ? "Updating every few seconds..." : "Up to date.";
  if (pending) timer = setTimeout(refresh, REFRESH_MS);
}

async function refreshByAccess(access: string): Promise<void> {
  const status = await api.GET("/api/orders/{id}/status", {
    params: { path: { id: orderId }, header: { "order-access": access } },
  });
  if (!status.data) return say("This order link is not valid. Use the latest link from your email.");
  byId("signout").hidden = true;
  followUp(render(status.data.order, status.data.items));
}

async function refresh(): Promise<void> {
  clearTimeout(timer);
  if (access) {
    try {
      return await refreshByAccess(access);
    } catch {
      byId("refresh-note").textContent = "The marketplace cannot be reached; trying again...";
      timer = setTimeout(refresh, REFRESH_MS);
      return;
    }
  }
  if (!session.current()) return signIn();
  try {
    const [order, dashboard] = await Promise.all([
      api.GET("/api/orders/{id}", { params: { path: { id: orderId } } }),
      api.GET("/api/dashboard"),
    ]);
    if (order.response.status === 401) return signIn("Your session has ended; sign in again.");
    if (!order.data)
      return say((order.error as { detail?: string } | undefined)?.detail ?? "This order cannot be shown.");
    followUp(render(order.data, dashboard.data?.items ?? []));
  } catch {
    byId("refresh-note").textContent = "The marketplace cannot be reached; trying again...";
    timer = setTimeout(refresh, REFRESH_MS);
  }
}

byId("signin-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = new FormData(event.target as HTMLFormElement);
  const body = { email: String(form.get("email")), password: String(form.get("password")) };
  try {
    const signedIn = await unwrap(api.POST("/api/auth/login", { body }));
    if (signedIn.user.role !== "customer") {
      byId("signin-note").textContent = "This page is for customers. Admins sign in at /admin.";
      return;
    }
    session.signIn(signedIn);
    await refresh();
  } catch (error) {
    byId("signin-note").textContent = messageOf(error);
  }
});

byId("signout").addEventListener("click", () => {
  session.signOut();
  signIn();
});

if (checkout === "success") byId("banner").textContent = "Thank you: your payment is being confirmed.";
if (checkout === "cancelled") byId("banner").textContent = "Checkout was cancelled; nothing was charged.";
void refresh();
