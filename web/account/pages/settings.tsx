import { useState } from "preact/hooks";
import { unwrap } from "../../shared/api.ts";
import { Field, NewPasswordField } from "../../shared/fields.tsx";
import { useLoad } from "../../shared/load.ts";
import { ActionButton, Loaded } from "../../shared/ui.tsx";
import { useFieldErrors } from "../../shared/use-field-errors.ts";
import { useSubmit } from "../../shared/use-submit.ts";
import { Card } from "../card.tsx";
import { api } from "../context.ts";

function ChangePassword() {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const fields = useFieldErrors(["/new_password"]);
  const { busy, message, submit } = useSubmit(async () => {
    fields.clear();
    await unwrap(api.POST("/api/me/password", { body: { current_password: current, new_password: next } }));
    setCurrent("");
    setNext("");
    return "Your password is changed. Every other session of your account has ended.";
  }, fields.take);
  return (
    <Card heading="Password">
      <form onSubmit={submit}>
        <Field
          label="Current password"
          type="password"
          autocomplete="current-password"
          required
          value={current}
          onInput={(e) => setCurrent(e.currentTarget.value)}
        />
        <NewPasswordField label="New password" error={fields.errors["/new_password"]} value={next} onChange={setNext} />
        <button type="submit" disabled={busy}>
          Change the password
        </button>
        <p role="status">{message}</p>
      </form>
    </Card>
  );
}

function ChangeEmail(props: { email: string }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const fields = useFieldErrors(["/email"]);
  const { busy, message, submit } = useSubmit(async () => {
    fields.clear();
    await unwrap(api.POST("/api/me/email", { body: { email, password } }));
    setPassword("");
    return `A link is on its way to ${email}. Your address changes when you open it; until then it stays ${props.email}.`;
  }, fields.take);
  return (
    <Card heading="Change your email address">
      <form onSubmit={submit}>
        <Field
          label="New email address"
          type="email"
          autocomplete="email"
          required
          error={fields.errors["/email"]}
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
        <Field
          label="Your password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
        <button type="submit" disabled={busy}>
          Send a confirmation link
        </button>
        <p role="status">{message}</p>
      </form>
    </Card>
  );
}

/** `/account/settings`: the account's address and whether it is verified, its password, a new address. */
export function Settings() {
  const { result } = useLoad(() => unwrap(api.GET("/api/me")), []);
  return (
    <>
      <h1>Settings</h1>
      <Loaded result={result}>
        {(me) => (
          <>
            <Card heading="Email address">
              <p>
                {me.email}: {me.email_verified ? "verified" : "not verified yet"}
              </p>
              {me.email_verified ? null : (
                <ActionButton
                  label="Send me a new verification link"
                  run={() => unwrap(api.POST("/api/auth/verify-email"))}
                  describe={() => `A link is on its way to ${me.email}.`}
                />
              )}
            </Card>
            <ChangePassword />
            <ChangeEmail email={me.email} />
          </>
        )}
      </Loaded>
    </>
  );
}
