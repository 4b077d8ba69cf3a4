import { useState } from "preact/hooks";
import { unwrap } from "../../shared/api.ts";
import { Field, NewPasswordField } from "../../shared/fields.tsx";
import { href } from "../../shared/router.ts";
import { useFieldErrors } from "../../shared/use-field-errors.ts";
import { useSubmit } from "../../shared/use-submit.ts";
import { api } from "../context.ts";

/** `/account/forgot-password`: an address, and a link to it if an account has it. */
export function ForgotPassword() {
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState(false);
  const { busy, message, submit } = useSubmit(async () => {
    await unwrap(api.POST("/api/auth/password-reset", { body: { email } }));
    setSent(true);
    return undefined;
  });
  return (
    <main class="sign-in">
      <h1>Forgot your password?</h1>
      {sent ? (
        <p role="status">
          If an account has the address {email}, a link to choose a new password is on its way to it. Open it within the
          hour; it works once.
        </p>
      ) : (
        <form onSubmit={submit}>
          <p>Give the address you signed up with, and we email you a link to choose a new password.</p>
          <Field
            label="Email"
            type="email"
            autocomplete="username"
            required
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
          <button type="submit" disabled={busy}>
            Send me a link
          </button>
          <p role="alert" class="error">
            {message}
          </p>
        </form>
      )}
      <p>
        <a href={href("/")}>Back to sign-in</a>
      </p>
    </main>
  );
}

/** `/account/reset-password?token=…`: the emailed link, where the new password is set. */
export function ResetPassword() {
  const [token] = useState(() => new URLSearchParams(location.search).get("token") ?? "");
  const [password, setPassword] = useState("");
  const [done, setDone] = useState(false);
  const fields = useFieldErrors(["/password"]);
  const { busy, message, submit } = useSubmit(async () => {
    fields.clear();
    await unwrap(api.POST("/api/auth/password-reset/confirm", { body: { token, password } }));
    setDone(true);
    return undefined;
  }, fields.take);
  if (done)
    return (
      <main class="sign-in">
        <h1>Your password is set</h1>
        <p role="status">Every session of your account has ended. Sign in with your new password.</p>
        <p>
          <a href={href("/")}>Sign in</a>
        </p>
      </main>
    );
  return (
    <main class="sign-in">
      <h1>Choose a new password</h1>
      {token ? (
        <form onSubmit={submit}>
          <NewPasswordField
            label="New password"
            error={fields.errors["/password"]}
            value={password}
            onChange={setPassword}
          />
          <button type="submit" disabled={busy}>
            Set the password
          </button>
          <p role="alert" class="error">
            {message}
          </p>
        </form>
      ) : (
        <p role="alert" class="error">
          This address holds no reset link. Open the link from the email as it was sent.
        </p>
      )}
      <p>
        <a href={href("/forgot-password")}>Ask for a new link</a>
      </p>
    </main>
  );
}
