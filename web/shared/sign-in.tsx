import { useState } from "preact/hooks";
import { type ApiClient, unwrap } from "./api.ts";
import { Field } from "./fields.tsx";
import { href } from "./router.ts";
import type { Role, SessionStore } from "./session.ts";
import { useSubmit } from "./use-submit.ts";

/** Email and password against `POST /api/auth/login`; a user of the wrong role is told where they belong. */
export function SignIn(props: {
  api: ApiClient;
  session: SessionStore;
  requiredRole: Role;
  title: string;
  wrongRole: string;
  /** The console's "Forgot your password?" page, if it has one. */
  forgotPassword?: string | undefined;
  /** The console's page for a new account, if it has one. */
  signUp?: string | undefined;
}) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const { busy, message, submit } = useSubmit(async () => {
    const session = await unwrap(props.api.POST("/api/auth/login", { body: { email, password } }));
    if (session.user.role !== props.requiredRole) return props.wrongRole;
    props.session.signIn(session);
    return undefined;
  });
  return (
    <main class="sign-in">
      <h1>{props.title}</h1>
      <form onSubmit={submit}>
        <Field
          label="Email"
          type="email"
          autocomplete="username"
          required
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
        <Field
          label="Password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <p role="alert" class="error">
          {message}
        </p>
      </form>
      {props.forgotPassword ? (
        <p>
          <a href={href(props.forgotPassword)}>Forgot your password?</a>
        </p>
      ) : null}
      {props.signUp ? (
        <p>
          New here? <a href={href(props.signUp)}>Create an account</a>
        </p>
      ) : null}
    </main>
  );
}
