import { useRef, useState } from "preact/hooks";
import { unwrap } from "../../shared/api.ts";
import { humanize } from "../../shared/format.ts";
import { useLoad } from "../../shared/load.ts";
import { href } from "../../shared/router.ts";
import { ErrorNote, Loaded, TableBox } from "../../shared/ui.tsx";
import { DRIVER_NAMES } from "../choices.ts";
import { api } from "../context.ts";
import type { Product } from "../products/product-draft.ts";
import { VariantPrices } from "../products/variant-prices.tsx";

type Listing = { items: Product[]; next_cursor: string | null };

const pageAt = (cursor?: string) =>
  unwrap(api.GET("/api/admin/products", { params: { query: { limit: 50, ...(cursor ? { cursor } : {}) } } }));

/** Every product, drafts and archived ones included, a page at a time. */
export function Products() {
  const { result } = useLoad(() => pageAt(), []);
  return (
    <>
      <h1>Products</h1>
      <p>
        <a href={href("/products/new")}>New product</a>
      </p>
      <Loaded result={result}>
        {(page) => (page.items.length === 0 ? <p>No products yet.</p> : <ProductTable first={page} />)}
      </Loaded>
    </>
  );
}

function ProductTable(props: { first: Listing }) {
  const [items, setItems] = useState(props.first.items);
  const [cursor, setCursor] = useState(props.first.next_cursor);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>();
  /** Cursors asked for or loaded: a second click on the same one must not add its page twice. */
  const asked = useRef(new Set<string>());
  const more = async () => {
    if (!cursor || asked.current.has(cursor)) return;
    asked.current.add(cursor);
    setBusy(true);
    setFailure(undefined);
    try {
      const page = await pageAt(cursor);
      setItems((shown) => {
        const ids = new Set(shown.map((product) => product.id));
        return [...shown, ...page.items.filter((product) => !ids.has(product.id))];
      });
      setCursor(page.next_cursor);
    } catch (error) {
      asked.current.delete(cursor);
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <TableBox label="Products" columns={["Name", "Status", "Delivery", "Prices"]}>
        <tbody>
          {items.map((product) => (
            <tr key={product.id}>
              <td>
                <a href={href(`/products/${encodeURIComponent(product.id)}`)}>{product.name}</a>
              </td>
              <td>{humanize(product.status)}</td>
              <td>
                {humanize(product.delivery_model)} by {DRIVER_NAMES[product.fulfillment_driver]}
              </td>
              <td>
                <VariantPrices options={product.checkout_options} />
              </td>
            </tr>
          ))}
        </tbody>
      </TableBox>
      {failure ? <ErrorNote error={failure} /> : null}
      {cursor ? (
        <button type="button" class="secondary" onClick={more} disabled={busy} aria-busy={busy}>
          Show more products
        </button>
      ) : null}
    </>
  );
}
