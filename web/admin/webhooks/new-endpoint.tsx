import { useState } from "preact/hooks";
import { unwrap } from "../../shared/api.ts";
import { Checkbox, Field } from "../../shared/fields.tsx";
import { href } from "../../shared/router.ts";
import { useFieldErrors } from "../../shared/use-field-errors.ts";
import { useSubmit } from "../../shared/use-submit.ts";
import { api } from "../context.ts";
import { EVENT_TYPES, type EventType } from "./event-types.ts";

const FIELDS = ["/url", "/events", "/description"] as const;

interface Created {
  readonly id: string;
  readonly url: string;
  readonly secret: string;
}

/** The signing secret of the endpoint just made: the API shows it in that one answer only. */
function SecretNotice(props: { created: Created; onDismiss: () => void }) {
  const { created } = props;
  return (
    <div role="status" class="notice">
      <p>
        The signing secret of <code>{created.url}</code>, shown this once: give it to the receiver now, to verify
        signatures with.
      </p>
      <p>
        <code>{created.secret}</code>
      </p>
      <p>
        <a href={href(`/webhooks/${created.id}`)}>Open the endpoint</a>
      </p>
      <button type="button" class="secondary" onClick={props.onDismiss}>
        I have copied it
      </button>
    </div>
  );
}

/** The events an endpoint receives, with the API's refusal of the choice under the legend. */
function EventChoice(props: {
  chosen: readonly EventType[];
  error: string | undefined;
  onToggle: (type: EventType, on: boolean) => void;
}) {
  return (
    <fieldset aria-describedby={props.error ? "endpoint-events-error" : undefined}>
      <legend>Events</legend>
      {props.error ? (
        <small id="endpoint-events-error" class="error">
          {props.error}
        </small>
      ) : null}
      {EVENT_TYPES.map((type) => (
        <Checkbox
          key={type}
          label={type}
          checked={props.chosen.includes(type)}
          onChange={(on) => props.onToggle(type, on)}
        />
      ))}
    </fieldset>
  );
}

/** The form for a new receiver of the shop's webhooks. */
export function NewEndpoint(props: { onCreated: () => void }) {
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<readonly EventType[]>([]);
  const [description, setDescription] = useState("");
  const [created, setCreated] = useState<Created | undefined>();
  const fields = useFieldErrors(FIELDS);
  const { busy, message, submit } = useSubmit(async () => {
    fields.clear();
    const endpoint = await unwrap(
      api.POST("/api/admin/webhook-endpoints", {
        body: { url, events: [...events], description: description.trim() || null },
      }),
    );
    setCreated({ id: endpoint.id, url: endpoint.url, secret: endpoint.secret });
    setUrl("");
    setEvents([]);
    setDescription("");
    props.onCreated();
    return undefined;
  }, fields.take);
  const toggle = (type: EventType, on: boolean) =>
    setEvents((now) => (on ? [...now, type] : now.filter((kept) => kept !== type)));
  return (
    <section aria-labelledby="new-endpoint">
      <h2 id="new-endpoint">New endpoint</h2>
      {created ? <SecretNotice created={created} onDismiss={() => setCreated(undefined)} /> : null}
      <form onSubmit={submit}>
        <Field
          label="URL"
          type="url"
          required
          hint="Where the events are POSTed: http(s), on a public address."
          error={fields.errors["/url"]}
          value={url}
          onInput={(e) => setUrl(e.currentTarget.value)}
        />
        <EventChoice chosen={events} error={fields.errors["/events"]} onToggle={toggle} />
        <Field
          label="Description"
          hint="What receives them, such as the ERP or the CRM."
          error={fields.errors["/description"]}
          value={description}
          onInput={(e) => setDescription(e.currentTarget.value)}
        />
        <button type="submit" disabled={busy || events.length === 0}>
          Create the endpoint
        </button>
        <p role="alert" class="error">
          {message}
        </p>
      </form>
    </section>
  );
}
