import { useState } from "preact/hooks";
import { ApiProblem, messageOf, unwrap } from "../shared/api.ts";
import { Field } from "../shared/fields.tsx";
import { api } from "./context.ts";

/** The domain a dedicated installation waits for, sent as the delivery's customer input. */
export function DomainForm(props: { fulfillmentId: string; prompt: string; onDone: () => void }) {
  const [domain, setDomain] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await unwrap(
        api.POST("/api/fulfillments/{id}/customer-input", {
          params: { path: { id: props.fulfillmentId } },
          body: { domain: domain.trim() },
        }),
      );
      props.onDone();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const fieldError = error instanceof ApiProblem ? error.fieldError("/domain") : undefined;
  return (
    <form onSubmit={submit}>
      <p>{props.prompt}</p>
      <Field
        label="Domain"
        name="domain"
        required
        placeholder="shop.example.com"
        hint="The address your installation will answer at, without https://"
        value={domain}
        error={fieldError}
        onInput={(event) => setDomain(event.currentTarget.value)}
      />
      <button type="submit" disabled={busy} aria-busy={busy}>
        Save domain
      </button>
      <p role="alert" class="error">
        {error && !fieldError ? messageOf(error) : ""}
      </p>
    </form>
  );
}
