import { useState } from "preact/hooks";
import { type Schemas, unwrap } from "../../shared/api.ts";
import { Field, Select } from "../../shared/fields.tsx";
import { formatMoney, formatTime, humanize } from "../../shared/format.ts";
import { useLoad } from "../../shared/load.ts";
import { ActionButton, Loaded, TableBox } from "../../shared/ui.tsx";
import { useFieldErrors } from "../../shared/use-field-errors.ts";
import { useSubmit } from "../../shared/use-submit.ts";
import { api } from "../context.ts";
import { PageLinks, usePager } from "../operations/pager.tsx";
import { Toolbar } from "../operations/toolbar.tsx";

type Discount = Schemas["Discount"];

const TYPES = [
  ["percent", "Percent off"],
  ["fixed", "Amount off"],
] as const;
const DURATIONS = [
  ["once", "The first payment"],
  ["repeating", "Some months"],
  ["forever", "Every payment"],
] as const;
const STATES = [
  ["", "Any"],
  ["active", "Not disabled"],
  ["disabled", "Disabled"],
] as const;

/** "25 %" or "$5.00"; a percentage is kept in basis points. */
const discountAmount = (discount: Pick<Discount, "type" | "amount" | "currency">) =>
  discount.type === "percent" ? `${discount.amount / 100} %` : formatMoney(discount.amount, discount.currency ?? "USD");

const FIELDS = ["/code", "/amount", "/duration_in_months", "/max_redemptions", "/expires_at"] as const;

/** A new code: what it takes off, for how long, how often, and until when. */
function NewDiscount(props: { onCreated: () => void }) {
  const [code, setCode] = useState("");
  const [type, setType] = useState<"percent" | "fixed">("percent");
  const [amount, setAmount] = useState("");
  const [duration, setDuration] = useState<"once" | "repeating" | "forever">("once");
  const [months, setMonths] = useState("");
  const [limit, setLimit] = useState("");
  const [expires, setExpires] = useState("");
  const fields = useFieldErrors(FIELDS);
  const { busy, message, submit } = useSubmit(async () => {
    fields.clear();
    // A percentage is typed as one (12.5) and sent in basis points; an amount is typed in minor units.
    const entered = Number(amount);
    const created = await unwrap(
      api.POST("/api/admin/discounts", {
        body: {
          code,
          type,
          amount: type === "percent" ? Math.round(entered * 100) : entered,
          duration,
          duration_in_months: duration === "repeating" ? Number(months) : null,
          max_redemptions: limit ? Number(limit) : null,
          expires_at: expires ? new Date(expires).toISOString() : null,
        },
      }),
    );
    setCode("");
    setAmount("");
    props.onCreated();
    return `Created ${created.code}.`;
  }, fields.take);
  return (
    <section aria-labelledby="new-discount">
      <h2 id="new-discount">New discount</h2>
      <form onSubmit={submit}>
        <Field
          label="Code"
          required
          error={fields.errors["/code"]}
          value={code}
          onInput={(e) => setCode(e.currentTarget.value)}
        />
        <Select label="Kind" value={type} options={TYPES} onChange={(v) => setType(v as "percent" | "fixed")} />
        <Field
          label={type === "percent" ? "Percent off" : "Amount off, in minor units (cents)"}
          type="number"
          step="any"
          required
          error={fields.errors["/amount"]}
          value={amount}
          onInput={(e) => setAmount(e.currentTarget.value)}
        />
        <Select
          label="Applies to"
          value={duration}
          options={DURATIONS}
          onChange={(v) => setDuration(v as "once" | "repeating" | "forever")}
        />
        {duration === "repeating" ? (
          <Field
            label="Months"
            type="number"
            required
            error={fields.errors["/duration_in_months"]}
            value={months}
            onInput={(e) => setMonths(e.currentTarget.value)}
          />
        ) : null}
        <Field
          label="Redemptions at most"
          type="number"
          hint="Leave empty for no limit."
          error={fields.errors["/max_redemptions"]}
          value={limit}
          onInput={(e) => setLimit(e.currentTarget.value)}
        />
        <Field
          label="Expires"
          type="datetime-local"
          hint="Leave empty for a code that works until disabled."
          error={fields.errors["/expires_at"]}
          value={expires}
          onInput={(e) => setExpires(e.currentTarget.value)}
        />
        <button type="submit" disabled={busy}>
          Create the discount
        </button>
        <p role="alert" class="error">
          {message}
        </p>
      </form>
    </section>
  );
}

/** `/admin/discounts`: the shop's codes, how often each was redeemed, and disabling one. */
export function Discounts() {
  const [state, setState] = useState<"" | "active" | "disabled">("");
  const pager = usePager(state);
  const { result, reload } = useLoad(
    () =>
      unwrap(
        api.GET("/api/admin/discounts", { params: { query: { state: state || undefined, cursor: pager.cursor } } }),
      ),
    [state, pager.cursor],
  );
  return (
    <>
      <h1>Discounts</h1>
      <NewDiscount onCreated={reload} />
      <h2>Codes</h2>
      <Toolbar onRefresh={reload}>
        <Select label="State" value={state} options={STATES} onChange={(v) => setState(v as typeof state)} />
      </Toolbar>
      <Loaded result={result}>
        {(found) =>
          found.items.length === 0 ? (
            <p>No discounts yet.</p>
          ) : (
            <>
              <TableBox
                label="Discounts"
                columns={["Code", "Off", "Applies to", "Redeemed", "Expires", "State", "Action"]}
              >
                <tbody>
                  {found.items.map((discount) => (
                    <tr key={discount.id}>
                      <td>
                        <code>{discount.code}</code>
                      </td>
                      <td>{discountAmount(discount)}</td>
                      <td>
                        {discount.duration === "repeating"
                          ? `${discount.duration_in_months} months`
                          : discount.duration === "once"
                            ? "the first payment"
                            : "every payment"}
                      </td>
                      <td>
                        {discount.redemptions}
                        {discount.max_redemptions === null ? "" : ` of ${discount.max_redemptions}`}
                      </td>
                      <td>{discount.expires_at ? formatTime(discount.expires_at) : "never"}</td>
                      <td class="status">{humanize(discount.state)}</td>
                      <td>
                        {discount.state === "disabled" ? null : (
                          <ActionButton
                            label={`Disable ${discount.code}`}
                            confirm={`Disable ${discount.code}? Checkouts refuse it from now on.`}
                            run={() =>
                              unwrap(
                                api.POST("/api/admin/discounts/{id}/disable", {
                                  params: { path: { id: discount.id } },
                                }),
                              )
                            }
                            describe={() => "Disabled."}
                            onDone={reload}
                          />
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </TableBox>
              <PageLinks pager={pager} next={found.next_cursor} />
            </>
          )
        }
      </Loaded>
    </>
  );
}
