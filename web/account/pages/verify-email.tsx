import { useState } from "preact/hooks";
import { unwrap } from "../../shared/api.ts";
import { href } from "../../shared/router.ts";
import { MissingLinkToken } from "../../shared/ui.tsx";
import { useSubmit } from "../../shared/use-submit.ts";
import { api } from "../context.ts";

/**
 * `/account/verify-email?token=…`: the emailed link that verifies an address or confirms a new one.
 * It asks for a click rather than confirming on load, so a mail scanner that opens links confirms
 * nothing.
 */
export function VerifyEmail() {
  const [token] = useState(() => new URLSearchParams(location.search).get("token") ?? "");
  const [done, setDone] = useState(false);
  const { busy, message, submit } = useSubmit(async () => {
    await unwrap(api.POST("/api/auth/verify-email/confirm", { body: { token } }));
    setDone(true);
    return undefined;
  });
  return (
    <main class="sign-in">
      <h1>Confirm your email address</h1>
      {done ? (
        <p role="status">Your email address is confirmed. Anything waiting for it is on its way.</p>
      ) : token ? (
        <form onSubmit={submit}>
          <p>Confirm that this address is yours, and we use it for your account.</p>
          <button type="submit" disabled={busy}>
            Confirm my email address
          </button>
          <p role="alert" class="error">
            {message}
          </p>
        </form>
      ) : (
        <MissingLinkToken />
      )}
      <p>
        <a href={href("/")}>Go to your account</a>
      </p>
    </main>
  );
}
