import { useId } from "preact/hooks";
import { Checkbox, Select } from "../../shared/fields.tsx";
import { GATEWAY_NAMES } from "../choices.ts";
import type { FormErrors } from "./form-errors.ts";
import { GATEWAYS, type Gateway, type ProductDraft } from "./product-draft.ts";

/** The gateways a customer may pay through, and the one offered first. */
export function GatewayFields(props: {
  draft: ProductDraft;
  change: (patch: Partial<ProductDraft>) => void;
  errors: FormErrors;
}) {
  const { draft, change, errors } = props;
  const id = useId();
  const enabled = draft.enabled_payment_gateways;
  const toggle = (gateway: Gateway, on: boolean) => {
    const next = GATEWAYS.filter((g) => (g === gateway ? on : enabled.includes(g)));
    const fallback = next.includes(draft.default_payment_gateway) ? draft.default_payment_gateway : next[0];
    change({ enabled_payment_gateways: next, default_payment_gateway: fallback ?? draft.default_payment_gateway });
  };
  const error = errors.within("/enabled_payment_gateways", "The enabled gateways:");
  return (
    <fieldset aria-describedby={error ? `${id}-error` : undefined}>
      <legend>Payment gateways</legend>
      {GATEWAYS.map((gateway) => (
        <Checkbox
          key={gateway}
          label={GATEWAY_NAMES[gateway]}
          checked={enabled.includes(gateway)}
          onChange={(on) => toggle(gateway, on)}
        />
      ))}
      {error ? (
        <p id={`${id}-error`} class="error">
          {error}
        </p>
      ) : null}
      <Select
        label="Default payment gateway"
        value={draft.default_payment_gateway}
        options={GATEWAYS.map((gateway) => [gateway, GATEWAY_NAMES[gateway]] as const)}
        onChange={(value) => change({ default_payment_gateway: value as Gateway })}
        error={errors.at("/default_payment_gateway", "The default gateway")}
      />
    </fieldset>
  );
}
