import { useState } from "preact/hooks";
import { unwrap } from "../../shared/api.ts";
import { Field, NewPasswordField } from "../../shared/fields.tsx";
import { href, navigate } from "../../shared/router.ts";
import { useFieldErrors } from "../../shared/use-field-errors.ts";
import { useSubmit } from "../../shared/use-submit.ts";
import { api, session } from "../context.ts";

const FIELDS = ["/name", "/email", "/password"] as const;

/** `/account/sign-up`: a new customer account, signed in at once; a link to verify the address follows by email. */
export function SignUp() {
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const fields = useFieldErrors(FIELDS);
  const { errors } = fields;
  const { busy, message, submit } = useSubmit(async () => {
    fields.clear();
    const registered = await unwrap(api.POST("/api/auth/register", { body: { name, email, password } }));
    session.signIn(registered);
    navigate("/");
    return undefined;
  }, fields.take);
  return (
    <main class="sign-in">
      <h1>Create your account</h1>
      <form onSubmit={submit}>
        <Field
          label="Name"
          autocomplete="name"
          required
          error={errors["/name"]}
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
        />
        <Field
          label="Email"
          type="email"
          autocomplete="email"
          required
          hint="We send a link to confirm it."
          error={errors["/email"]}
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
        <NewPasswordField label="Password" error={errors["/password"]} value={password} onChange={setPassword} />
        <button type="submit" disabled={busy}>
          Create the account
        </button>
        <p role="alert" class="error">
          {message}
        </p>
      </form>
      <p>
        Have an account? <a href={href("/")}>Sign in</a>
      </p>
    </main>
  );
}
