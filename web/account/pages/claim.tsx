import { useState } from "preact/hooks";
import { unwrap } from "../../shared/api.ts";
import { Field, NewPasswordField } from "../../shared/fields.tsx";
import { href, navigate } from "../../shared/router.ts";
import { MissingLinkToken } from "../../shared/ui.tsx";
import { useFieldErrors } from "../../shared/use-field-errors.ts";
import { useSubmit } from "../../shared/use-submit.ts";
import { api, session } from "../context.ts";

const FIELDS = ["/password", "/name"] as const;

/**
 * `/account/claim?token=…`: the link in a guest's emails. A password makes the guest's orders an
 * account, signed in at once.
 */
export function ClaimAccount() {
  const [token] = useState(() => new URLSearchParams(location.search).get("token") ?? "");
  const [password, setPassword] = useState("");
  const [name, setName] = useState("");
  const fields = useFieldErrors(FIELDS);
  const { busy, message, submit } = useSubmit(async () => {
    fields.clear();
    const body = { token, password, ...(name.trim() ? { name } : {}) };
    session.signIn(await unwrap(api.POST("/api/auth/claim", { body })));
    navigate("/");
    return undefined;
  }, fields.take);
  return (
    <main class="sign-in">
      <h1>Keep your orders in an account</h1>
      {token ? (
        <form onSubmit={submit}>
          <p>Choose a password: every order you placed with this email address will be in your account.</p>
          <NewPasswordField
            label="Password"
            error={fields.errors["/password"]}
            value={password}
            onChange={setPassword}
          />
          <Field
            label="Your name (optional)"
            autocomplete="name"
            error={fields.errors["/name"]}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
          <button type="submit" disabled={busy}>
            Set the password
          </button>
          <p role="alert" class="error">
            {message}
          </p>
        </form>
      ) : (
        <MissingLinkToken />
      )}
      <p>
        Set a password already? <a href={href("/")}>Sign in</a>. Link expired?{" "}
        <a href={href("/sign-up")}>Create an account</a> with the same address and confirm it: your orders join it.
      </p>
    </main>
  );
}
