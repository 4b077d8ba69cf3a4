/**
 * The product page's buy form for a customer signed in in this tab (the account console's
 * session): the order goes to the account, so the form asks for no address and opens the checkout
 * through the API with the customer's token. Signed out, the script does nothing: the form posts
 * as it is, and the server checks out as a guest.
 */
import { createApiClient, messageOf, type Schemas, unwrap } from "../shared/api.ts";
import { createSessionStore } from "../shared/session.ts";

type CheckoutRequest = Schemas["CheckoutRequest"];

const session = createSessionStore("marketplace.customer_token");
const form = document.querySelector<HTMLFormElement>("form.buy");
const signedIn = session.current();

if (form && signedIn?.user.role === "customer") {
  const productId = form.dataset.productId ?? "";
  for (const guestOnly of form.querySelectorAll<HTMLElement>(".guest-only")) {
    guestOnly.hidden = true;
    for (const input of guestOnly.querySelectorAll("input")) input.required = false;
  }
  const note = Object.assign(document.createElement("p"), {
    className: "note",
    textContent: `Signed in as ${signedIn.user.email}: the order goes to your account.`,
  });
  const alert = Object.assign(document.createElement("p"), { className: "error" });
  alert.setAttribute("role", "alert");
  form.querySelector("button[type=submit]")?.before(note, alert);
  const api = createApiClient(session);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const fields = new FormData(form);
    const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
    if (button) button.disabled = true;
    alert.textContent = "";
    try {
      const body: CheckoutRequest = {
        items: [
          {
            product_id: productId,
            variant: String(fields.get("variant")) as CheckoutRequest["items"][number]["variant"],
          },
        ],
        payment_gateway: String(fields.get("payment_gateway")) as CheckoutRequest["payment_gateway"],
      };
      const opened = await unwrap(api.POST("/api/checkout/create", { body }));
      location.assign(opened.checkout.url);
    } catch (error) {
      alert.textContent = messageOf(error);
      if (button) button.disabled = false;
    }
  });
}
