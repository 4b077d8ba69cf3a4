import { unwrap } from "../../shared/api.ts";
import { useLoad } from "../../shared/load.ts";
import { navigate } from "../../shared/router.ts";
import { Loaded } from "../../shared/ui.tsx";
import { api } from "../context.ts";
import { emptyDraft } from "../products/product-draft.ts";
import { ProductForm } from "../products/product-form.tsx";

/** A new product: once the API accepts it, its own page takes over. */
export function ProductEditorPage() {
  const { result } = useLoad(() => unwrap(api.GET("/api/admin/fulfillment-drivers")), []);
  return (
    <>
      <h1>New product</h1>
      <Loaded result={result}>
        {({ items }) => (
          <ProductForm
            initial={emptyDraft(items)}
            drivers={items}
            save={async (input) => {
              const created = await unwrap(api.POST("/api/admin/products", { body: input }));
              navigate(`/products/${created.id}`);
              return undefined;
            }}
          />
        )}
      </Loaded>
    </>
  );
}
