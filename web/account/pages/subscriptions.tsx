import { type Schemas, unwrap } from "../../shared/api.ts";
import { formatTime, humanize } from "../../shared/format.ts";
import { useLoad } from "../../shared/load.ts";
import { ActionButton, Loaded, TableBox } from "../../shared/ui.tsx";
import { api } from "../context.ts";

type Subscription = Schemas["Subscription"];

function Renewal(props: { subscription: Subscription }) {
  const { subscription } = props;
  if (subscription.status === "cancelled") return <>Ended {formatTime(subscription.cancelled_at)}</>;
  const end = formatTime(subscription.current_period_end);
  if (subscription.cancel_at_period_end) return <>Ends {end}</>;
  if (subscription.trial_ends_at && subscription.status === "trialing")
    return <>Trial ends {formatTime(subscription.trial_ends_at)}</>;
  return <>Renews {end}</>;
}

/** Cancelling takes effect at the end of the paid period, so until then it can be taken back. */
function Change(props: { subscription: Subscription; onDone: () => void }) {
  const path = { params: { path: { id: props.subscription.id } } };
  if (props.subscription.status === "cancelled") return null;
  return props.subscription.cancel_at_period_end ? (
    <ActionButton
      label="Resume"
      run={() => unwrap(api.POST("/api/subscriptions/{id}/resume", path))}
      describe={(s) => `Resumed: it renews ${formatTime(s.current_period_end)}.`}
      onDone={props.onDone}
    />
  ) : (
    <ActionButton
      label="Cancel"
      run={() => unwrap(api.POST("/api/subscriptions/{id}/cancel", path))}
      describe={(s) => `Cancelled: it ends ${formatTime(s.current_period_end)}.`}
      onDone={props.onDone}
    />
  );
}

/** The customer's subscriptions: when each renews or ends, and the one change that applies to it. */
export function Subscriptions() {
  const { result, reload } = useLoad(() => unwrap(api.GET("/api/subscriptions")), []);
  return (
    <>
      <h1>Subscriptions</h1>
      <Loaded result={result}>
        {(page) =>
          page.items.length === 0 ? (
            <p>You have no subscriptions.</p>
          ) : (
            <TableBox label="Subscriptions" columns={["Product", "Status", "Billing", "Period", "Change"]}>
              <tbody>
                {page.items.map((subscription) => (
                  <tr key={subscription.id}>
                    <th scope="row">{subscription.product_name}</th>
                    <td>
                      {humanize(subscription.status)}
                      {subscription.cancel_at_period_end && subscription.status !== "cancelled" ? ", cancelled" : ""}
                    </td>
                    <td>{humanize(subscription.billing_interval)}</td>
                    <td>
                      <Renewal subscription={subscription} />
                    </td>
                    <td>
                      <Change subscription={subscription} onDone={reload} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </TableBox>
          )
        }
      </Loaded>
    </>
  );
}
