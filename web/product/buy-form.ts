/**
 * The product page's buy form for a customer signed in in this tab (the account console's
 * session): the order goes to the account, so the form asks for no address and opens the checkout
 * through the API with the customer's token. Signed out, the script does nothing: the form posts
 * as it is, and the server checks out as a guest.
 */
import { createApiClient, messageOf, type Schemas, unwrap } from "../shared/api.ts";
import { safeHref } from "../shared/format.ts";
import { createSessionStore } from "../shared/session.ts";

type CheckoutRequest = Schemas["CheckoutRequest"];

const session = createSessionStore("marketplace.customer_token");
const form = document.querySelector<HTMLFormElement>("form.buy");
const signedIn = session.current();

/** Shows or hides what only a guest fills in: the address and the name. */
function guestFields(form: HTMLFormElement, shown: boolean) {
  for (const guestOnly of form.querySelectorAll<HTMLElement>(".guest-only")) {
    guestOnly.hidden = !shown;
    for (const input of guestOnly.querySelectorAll<HTMLInputElement>("input[type=email]")) input.required = shown;
  }
}

if (form && signedIn?.user.role === "customer") {
  const productId = form.dataset.productId ?? "";
  guestFields(form, false);
  const note = Object.assign(document.createElement("p"), {
    className: "note",
    textContent: `Signed in as ${signedIn.user.email}: the order goes to your account.`,
  });
  const alert = Object.assign(document.createElement("p"), { className: "error" });
  alert.setAttribute("role", "alert");
  form.querySelector("button[type=submit]")?.before(note, alert);
  const api = createApiClient(session);
  const submitted = async (event: SubmitEvent) => {
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
      const target = safeHref(opened.checkout.url);
      if (!target) throw new Error("The gateway's checkout address is not a web link.");
      location.assign(target);
    } catch (error) {
      // A refused token ends the session (api.ts): buy as a guest, the form posting as it is, or sign in again.
      if (!session.current()) {
        form.removeEventListener("submit", submitted);
        guestFields(form, true);
        note.remove();
        alert.textContent = "Your session has ended: give your email address, or sign in again.";
      } else {
        alert.textContent = messageOf(error);
      }
      if (button) button.disabled = false;
    }
  };
  form.addEventListener("submit", submitted);
}
