// The order status page holds no session of its own: the customer's token lives in sessionStorage
// under SESSION_KEY (gone when the tab closes) and every call is the public API with a bearer token.
// The entry is the account console's own `{"token","user"}`, so signing in on either signs in on both.
const SESSION_KEY = "marketplace.customer_token";
const REFRESH_MS = 3000;
const IN_PROGRESS = new Set(["queued", "processing"]);
// Links a browser can follow; the other actions are API calls made from a button or a form.
const NAVIGABLE = new Set(["pay", "open_workspace", "download"]);

const orderId = decodeURIComponent(location.pathname.split("/")[2] ?? "");
const checkout = new URLSearchParams(location.search).get("checkout");
const byId = (id) => document.getElementById(id);
let timer;

function show(section) {
  for (const id of ["signin", "order", "message"]) byId(id).hidden = id !== section;
}

function say(text) {
  byId("message").textContent = text;
  show("message");
}

function storedToken() {
  try {
    const session = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? "null");
    return typeof session?.token === "string" && session.user ? session.token : null;
  } catch {
    return null;
  }
}

async function api(method, path, body) {
  const token = storedToken();
  const headers = { accept: "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body) headers["content-type"] = "application/json";
  const response = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  return { status: response.status, data: await response.json().catch(() => null) };
}

function signIn(note = "") {
  clearTimeout(timer);
  byId("signin-note").textContent = note;
  show("signin");
}

function money(amount, currency) {
  const format = new Intl.NumberFormat(undefined, { style: "currency", currency });
  return format.format(amount / 10 ** format.resolvedOptions().maximumFractionDigits);
}

// A link only to http(s) or a path on this site: a provider's `javascript:` address is shown as words.
function safeHref(url) {
  if (typeof url !== "string" || !url) return undefined;
  if (url.startsWith("/") && !url.startsWith("//")) return url;
  try {
    const { protocol } = new URL(url);
    return protocol === "https:" || protocol === "http:" ? url : undefined;
  } catch {
    return undefined;
  }
}

// The API calls an action makes carry the bearer token, so they go to this site's API only.
const isApiPath = (url) => typeof url === "string" && url.startsWith("/api/");

function actionCell(action) {
  const cell = document.createElement("td");
  if (!action) return cell;
  const target = safeHref(action.url);
  if (target && NAVIGABLE.has(action.kind)) {
    const link = Object.assign(document.createElement("a"), { href: target, textContent: action.label });
    if (action.kind !== "download") {
      link.target = "_blank";
      link.rel = "noopener";
    }
    cell.append(link);
  } else if (isApiPath(action.url) && action.kind === "retry") {
    const button = Object.assign(document.createElement("button"), { type: "button", textContent: action.label });
    button.addEventListener("click", () => api("POST", action.url).then(refresh));
    cell.append(button);
  } else if (isApiPath(action.url) && action.kind === "provide_domain") {
    const form = document.createElement("form");
    const input = Object.assign(document.createElement("input"), { name: "domain", required: true });
    form.append(action.label, " ", input, Object.assign(document.createElement("button"), { textContent: "Save" }));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      api("POST", action.url, { domain: input.value }).then(refresh);
    });
    cell.append(form);
  } else {
    cell.textContent = action.label;
  }
  return cell;
}

function render(order, dashboardItems) {
  byId("order-id").textContent = order.id;
  byId("order-status").textContent = order.status.replaceAll("_", " ");
  byId("order-total").textContent = money(order.total, order.currency);
  const rows = order.items.map((item) => {
    const shown = dashboardItems.find((d) => d.order_item_id === item.id);
    const status = shown?.status ?? item.fulfillment?.status ?? "pending_payment";
    const row = document.createElement("tr");
    row.dataset.itemId = item.id;
    const name = Object.assign(document.createElement("td"), { textContent: `${item.product_name} (${item.variant})` });
    const state = Object.assign(document.createElement("td"), { className: "status", textContent: status });
    row.append(name, state, actionCell(shown?.next_action));
    return { row, pending: IN_PROGRESS.has(status) || shown?.next_action?.kind === "wait" };
  });
  byId("items").replaceChildren(...rows.map((r) => r.row));
  show("order");
  // A cancelled checkout leaves the order unpaid on purpose: nothing will change without the customer.
  const waitingForPayment = order.status === "pending_payment" && checkout !== "cancelled";
  return waitingForPayment || rows.some((r) => r.pending);
}

async function refresh() {
  clearTimeout(timer);
  if (!storedToken()) return signIn();
  try {
    const [order, dashboard] = await Promise.all([
      api("GET", `/api/orders/${encodeURIComponent(orderId)}`),
      api("GET", "/api/dashboard"),
    ]);
    if (order.status === 401) {
      sessionStorage.removeItem(SESSION_KEY);
      return signIn("Your session has ended; sign in again.");
    }
    if (order.status !== 200) return say(order.data?.detail ?? "This order cannot be shown.");
    const pending = render(order.data, dashboard.status === 200 ? dashboard.data.items : []);
    byId("refresh-note").textContent = pending ? "Updating every few seconds..." : "Up to date.";
    if (pending) timer = setTimeout(refresh, REFRESH_MS);
  } catch {
    byId("refresh-note").textContent = "The marketplace cannot be reached; trying again...";
    timer = setTimeout(refresh, REFRESH_MS);
  }
}

byId("signin-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const result = await api("POST", "/api/auth/login", { email: form.get("email"), password: form.get("password") });
  if (result.status !== 200) {
    byId("signin-note").textContent = result.data?.detail ?? "Sign-in failed.";
    return;
  }
  const { token, user } = result.data;
  if (user.role !== "customer") {
    byId("signin-note").textContent = "This page is for customers. Admins sign in at /admin.";
    return;
  }
  sessionStorage.setItem(SESSION_KEY, JSON.stringify({ token, user }));
  refresh();
});

byId("signout").addEventListener("click", () => {
  sessionStorage.removeItem(SESSION_KEY);
  signIn();
});

if (checkout === "success") byId("banner").textContent = "Thank you: your payment is being confirmed.";
if (checkout === "cancelled") byId("banner").textContent = "Checkout was cancelled; nothing was charged.";
refresh();
