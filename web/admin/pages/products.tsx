import { useState } from "preact/hooks";
import { unwrap } from "../../shared/api.ts";
import { humanize } from "../../shared/format.ts";
import { useLoad } from "../../shared/load.ts";
import { href } from "../../shared/router.ts";
import { ErrorNote, Loaded, TableBox } from "../../shared/ui.tsx";
import { api } from "../context.ts";
import type { Product } from "../products/product-draft.ts";
import { VariantPrices } from "../products/variant-prices.tsx";

const firstPage = () => unwrap(api.GET("/api/admin/products", { params: { query: { limit: 50 } } }));

/** Every product, drafts and archived ones included, a page at a time. */
export function Products() {
  const { result } = useLoad(firstPage, []);
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

function ProductTable(props: { first: { items: Product[]; next_cursor: string | null } }) {
  const [items, setItems] = useState(props.first.items);
  const [cursor, setCursor] = useState(props.first.next_cursor);
  const [failure, setFailure] = useState<unknown>();
  const more = async () => {
    try {
      const page = await unwrap(
        api.GET("/api/admin/products", { params: { query: { limit: 50, ...(cursor ? { cursor } : {}) } } }),
      );
      setItems((shown) => [...shown, ...page.items]);
      setCursor(page.next_cursor);
    } catch (error) {
      setFailure(error);
    }
  };
  return (
    <>
      <TableBox label="Products">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Status</th>
            <th scope="col">Delivery</th>
            <th scope="col">Prices</th>
          </tr>
        </thead>
        <tbody>
          {items.map((product) => (
            <tr key={product.id}>
              <td>
                <a href={href(`/products/${product.id}`)}>{product.name}</a>
              </td>
              <td>{humanize(product.status)}</td>
              <td>
                {humanize(product.delivery_model)} by {humanize(product.fulfillment_driver)}
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
        <button type="button" class="secondary" onClick={more}>
          Show more products
        </button>
      ) : null}
    </>
  );
}
