import type { Schemas } from "../shared/api.ts";
import { unwrap } from "../shared/api.ts";
import { formatTime, safeHref } from "../shared/format.ts";
import { ActionButton } from "../shared/ui.tsx";
import { api } from "./context.ts";
import { DomainForm } from "./domain-form.tsx";

type Item = Schemas["DashboardItem"];

/** A link only to an address safe to follow; otherwise the words alone. */
function LinkOrText(props: { url: string | null | undefined; label: string }) {
  const target = safeHref(props.url);
  return target ? <a href={target}>{props.label}</a> : props.label;
}

/** What the customer can do next with one purchased item, as the API words it. */
export function NextAction(props: { item: Item; onChange: () => void }) {
  const { item, onChange } = props;
  const action = item.next_action;
  const fulfillmentId = item.fulfillment_id;
  switch (action.kind) {
    case "pay":
    case "open_workspace":
      return (
        <p>
          <LinkOrText url={action.url} label={action.label} />
        </p>
      );
    case "download":
      return (
        <div>
          <p>
            <LinkOrText url={action.url} label={action.label} />
          </p>
          {action.license_key ? (
            <p>
              License key: <code>{action.license_key}</code>
            </p>
          ) : null}
        </div>
      );
    case "provide_domain":
      return fulfillmentId ? (
        <DomainForm fulfillmentId={fulfillmentId} prompt={action.label} onDone={onChange} />
      ) : (
        <p>{action.label}</p>
      );
    case "verify_email":
      return (
        <div>
          <p>{action.label}</p>
          <ActionButton
            label="Send me a new link"
            run={() => unwrap(api.POST("/api/auth/verify-email"))}
            describe={() => "A new link is on its way to your email address."}
          />
        </div>
      );
    case "wait_for_team":
      return (
        <p>
          {action.label}
          {action.due_at ? `; expect it by ${formatTime(action.due_at)}.` : "."}
        </p>
      );
    case "retry":
      return (
        <div>
          <p>{action.label}</p>
          {fulfillmentId ? (
            <ActionButton
              label="Try again"
              run={() => unwrap(api.POST("/api/fulfillments/{id}/retry", { params: { path: { id: fulfillmentId } } }))}
              describe={() => "Delivery started again."}
              onDone={onChange}
            />
          ) : null}
        </div>
      );
    default:
      return <p>{action.label}</p>;
  }
}
