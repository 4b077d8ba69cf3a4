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

/**
 * The gateway's portal, where a new card is entered: a past-due renewal is paid with it at once.
 * The portal's link is short-lived, so it is asked for on the click and followed straight away.
 */
function UpdateCard(props: { subscription: Subscription }) {
  if (props.subscription.status === "cancelled") return null;
  const path = { params: { path: { id: props.subscription.id } } };
  return (
    <ActionButton
      label="Update card"
      run={async () => {
        const { url } = await unwrap(api.POST("/api/subscriptions/{id}/billing-portal", path));
        window.location.assign(url);
        return url;
      }}
      describe={() => "Opening the payment page…"}
    />
  );
}

/** The customer's subscriptions: when each renews or ends, the change that applies to it, and the card it is paid with. */
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
                      {subscription.status === "past_due" ? (
                        <p class="error">The last renewal could not be collected: update your card.</p>
                      ) : null}
                    </td>
                    <td>{humanize(subscription.billing_interval)}</td>
                    <td>
                      <Renewal subscription={subscription} />
                    </td>
                    <td>
                      <Change subscription={subscription} onDone={reload} /> <UpdateCard subscription={subscription} />
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
