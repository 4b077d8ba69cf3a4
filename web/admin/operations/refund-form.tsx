import { useState } from "preact/hooks";
import { ApiProblem, type Schemas, unwrap } from "../../shared/api.ts";
import { Field, Select } from "../../shared/fields.tsx";
import { formatMoney, fractionDigits } from "../../shared/format.ts";
import { ActionButton } from "../../shared/ui.tsx";
import { api } from "../context.ts";
import { exampleAmount, toMinorUnits } from "./money.ts";
import { refundableOf } from "./order-ledger.tsx";

type Order = Schemas["AdminOrderDetails"];

/**
 * Refunds one payment, all that is left of it or an amount written in the currency's major units
 * (`12.50`), as a person reads prices; the API takes minor units.
 */
export function RefundForm(props: { order: Order; onRefunded: (order: Order) => void }) {
  const { order } = props;
  const currency = order.currency.toUpperCase();
  const refundable = order.payments.filter((payment) => refundableOf(payment) > 0);
  const [paymentId, setPaymentId] = useState("");
  const [amount, setAmount] = useState("");
  const [amountError, setAmountError] = useState<string | undefined>();
  const payment = refundable.find((candidate) => candidate.payment_id === paymentId) ?? refundable.at(-1);
  if (!payment) return <p>Nothing is left to refund.</p>;
  const left = refundableOf(payment);
  const money = (minor: number) => formatMoney(minor, payment.currency);
  const written = amount.trim();
  const minor = written ? toMinorUnits(written, payment.currency) : left;
  const problem =
    minor === undefined
      ? `Write the amount in ${currency}, such as ${exampleAmount(payment.currency)}.`
      : minor < 1 || minor > left
        ? `Refund between ${money(1)} and ${money(left)}.`
        : undefined;
  const run = async () => {
    setAmountError(problem);
    if (problem) throw new Error(problem);
    try {
      return await unwrap(
        api.POST("/api/admin/orders/{id}/refund", {
          params: { path: { id: order.id } },
          body: { payment_id: payment.payment_id, ...(written ? { amount: minor } : {}) },
        }),
      );
    } catch (error) {
      if (error instanceof ApiProblem) setAmountError(error.fieldError("/amount"));
      throw error;
    }
  };
  return (
    <fieldset>
      <legend>Refund</legend>
      {refundable.length > 1 ? (
        <Select
          label="Payment to refund"
          value={payment.payment_id}
          options={refundable.map(
            (p) => [p.payment_id, `${p.payment_id}: ${formatMoney(refundableOf(p), p.currency)} left`] as const,
          )}
          onChange={setPaymentId}
        />
      ) : (
        <p>
          Payment <code>{payment.payment_id}</code>: {money(left)} left to refund.
        </p>
      )}
      <Field
        label={`Amount to refund, in ${currency} (such as ${exampleAmount(payment.currency)}${fractionDigits(payment.currency) > 0 ? ", not in cents" : ""})`}
        value={amount}
        hint={`Leave empty to refund all that is left: ${money(left)}.`}
        error={amountError}
        onInput={(event) => setAmount(event.currentTarget.value)}
      />
      <ActionButton
        label="Refund"
        confirm={problem ? undefined : `Refund ${money(minor ?? left)} of payment ${payment.payment_id}?`}
        run={run}
        describe={() => `Refunded ${money(minor ?? left)}.`}
        onDone={(after) => {
          setAmount("");
          props.onRefunded(after);
        }}
      />
    </fieldset>
  );
}
