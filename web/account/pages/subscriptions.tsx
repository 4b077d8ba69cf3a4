import { useState } from "preact/hooks";
import { type Schemas, unwrap } from "../../shared/api.ts";
import { formatMoney, formatTime, humanize } from "../../shared/format.ts";
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

type PlanOptions = Schemas["PlanOptions"];

/** What the discount code the subscription was bought with still takes off its renewals. */
function DiscountNote(props: { subscription: Subscription }) {
  const { discount } = props.subscription;
  if (!discount) return null;
  const left = discount.renewals_left;
  const when = left === null ? "every renewal" : left === 1 ? "the next renewal" : `the next ${left} renewals`;
  return (
    <p class="note" data-discount={discount.code}>
      Code {discount.code}: {formatMoney(discount.renewal_amount, discount.currency)} for {when}
    </p>
  );
}

/** What one plan would bill: at once (after the credit for unused time) and at each renewal. */
function optionWords(option: PlanOptions["options"][number]): string {
  const renewal = `then ${formatMoney(option.next_amount, option.currency)} ${option.billing_interval}`;
  if (option.effective === "now") return `${formatMoney(option.due_now, option.currency)} now, ${renewal}`;
  return `nothing now; from ${formatTime(option.next_billing_at)}, ${renewal}`;
}

/**
 * The plans a subscription can move to, asked for on the click (each amount is the gateway's own
 * preview), and the switch to one of them. A longer interval applies at once; a shorter one at the
 * end of the paid period.
 */
function Plan(props: { subscription: Subscription; onDone: () => void }) {
  const { subscription } = props;
  const [options, setOptions] = useState<PlanOptions | undefined>();
  const [changed, setChanged] = useState("");
  const path = { params: { path: { id: subscription.id } } };
  if (subscription.status !== "active" || subscription.cancel_at_period_end) return null;
  if (!options) {
    return (
      <>
        <ActionButton
          label="Change plan"
          run={() => unwrap(api.GET("/api/subscriptions/{id}/plan-options", path))}
          describe={(found) => (found.options.length === 0 ? "No other plan is offered." : "")}
          onDone={setOptions}
        />
        {changed ? (
          <p role="status" class="note">
            {changed}
          </p>
        ) : null}
      </>
    );
  }
  return (
    <ul class="plan-options" aria-label="Plans">
      {options.options.map((option) => (
        <li key={option.billing_interval} data-plan={option.billing_interval}>
          <ActionButton
            label={`Switch to ${option.billing_interval}`}
            run={() =>
              unwrap(
                api.POST("/api/subscriptions/{id}/change-plan", {
                  ...path,
                  body: { variant: option.billing_interval },
                }),
              )
            }
            onDone={(done) => {
              setChanged(
                done.change.effective === "now"
                  ? `Now ${done.change.billing_interval}.`
                  : `It becomes ${done.change.billing_interval} on ${formatTime(done.change.at)}.`,
              );
              setOptions(undefined);
              props.onDone();
            }}
          />{" "}
          <span class="note">{optionWords(option)}</span>
        </li>
      ))}
    </ul>
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
                    <td>
                      {humanize(subscription.billing_interval)}
                      <DiscountNote subscription={subscription} />
                      {subscription.pending_interval ? (
                        <p class="note">
                          {humanize(subscription.pending_interval)} from {formatTime(subscription.pending_at)}
                        </p>
                      ) : null}
                    </td>
                    <td>
                      <Renewal subscription={subscription} />
                    </td>
                    <td>
                      <Change subscription={subscription} onDone={reload} /> <UpdateCard subscription={subscription} />
                      <Plan subscription={subscription} onDone={reload} />
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
