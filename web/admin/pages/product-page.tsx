import type { ComponentChildren } from "preact";
import { useId } from "preact/hooks";
import { unwrap } from "../../shared/api.ts";
import { useLoad } from "../../shared/load.ts";
import { Loaded } from "../../shared/ui.tsx";
import { api } from "../context.ts";
import { CheckoutPreview } from "../products/checkout-preview.tsx";
import { GatewayAProduct } from "../products/gateway-a-product.tsx";
import { PricingMappings } from "../products/pricing-mappings.tsx";
import {
  type DriverDescription,
  draftOf,
  fieldsBesideEditor,
  type Product,
  type ProductInput,
} from "../products/product-draft.ts";
import { ProductForm } from "../products/product-form.tsx";
import { ProviderPanel } from "../products/provider-panel.tsx";

const productOf = (id: string) => unwrap(api.GET("/api/admin/products/{id}", { params: { path: { id } } }));

function Section(props: { title: string; children: ComponentChildren }) {
  const id = useId();
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{props.title}</h2>
      {props.children}
    </section>
  );
}

/** One product: its editor, and the actions an admin checks it with. */
export function ProductPage(props: { id: string }) {
  const { result, reload } = useLoad(
    () => Promise.all([productOf(props.id), unwrap(api.GET("/api/admin/fulfillment-drivers"))]),
    [props.id],
  );
  return (
    <Loaded result={result}>
      {([product, drivers]) => (
        <ProductView key={product.id} product={product} drivers={drivers.items} reload={reload} />
      )}
    </Loaded>
  );
}

function ProductView(props: { product: Product; drivers: readonly DriverDescription[]; reload: () => void }) {
  const { product } = props;
  const management = product.fulfillment_config.management as { enabled?: unknown } | undefined;
  const save = async (input: ProductInput) => {
    const current = await productOf(product.id);
    await unwrap(
      api.PUT("/api/admin/products/{id}", {
        params: { path: { id: product.id } },
        body: { ...fieldsBesideEditor(current), ...input },
      }),
    );
    props.reload();
    return "Saved.";
  };
  return (
    <>
      <h1>{product.name}</h1>
      <Section title="Details">
        <ProductForm initial={draftOf(product)} drivers={props.drivers} save={save} />
      </Section>
      <Section title="Checkout preview">
        <CheckoutPreview id={product.id} />
      </Section>
      <Section title="Pricing mappings">
        <PricingMappings id={product.id} onSaved={props.reload} />
      </Section>
      <Section title="Gateway A">
        <GatewayAProduct id={product.id} currency={product.checkout_options.variants[0]?.currency} />
      </Section>
      {management?.enabled === true ? (
        <Section title="Provider">
          <ProviderPanel id={product.id} />
        </Section>
      ) : null}
    </>
  );
}
