import { type Schemas, unwrap } from "../../shared/api.ts";
import { formatTime, humanize } from "../../shared/format.ts";
import { dataOf, type Loading, useLoad } from "../../shared/load.ts";
import { Loaded } from "../../shared/ui.tsx";
import { useRefreshWhile } from "../../shared/use-refresh.ts";
import { Card } from "../card.tsx";
import { api } from "../context.ts";
import { NextAction } from "../next-action.tsx";

type Item = Schemas["DashboardItem"];

const IN_PROGRESS = new Set<Item["status"]>(["queued", "processing"]);

/** An item whose delivery will change without the customer doing anything. */
const moving = (item: Item) => IN_PROGRESS.has(item.status) || item.next_action.kind === "wait";

function Purchase(props: { item: Item; onChange: () => void }) {
  const { item } = props;
  return (
    <Card
      heading={
        <>
          {item.product_name} <span class="note">({humanize(item.variant)})</span>
        </>
      }
    >
      <p>
        Status: <strong>{humanize(item.status)}</strong>
        <span class="note">
          {" · "}bought {formatTime(item.purchased_at)}
          {" · "}
          <a href={`/orders/${encodeURIComponent(item.order_id)}`}>order details</a>
        </span>
      </p>
      <NextAction item={item} onChange={props.onChange} />
    </Card>
  );
}

function statusText(state: Loading<unknown>["state"], inProgress: boolean): string {
  if (state === "loading") return "";
  if (!inProgress) return state === "loaded" ? "Up to date." : "";
  return state === "loaded"
    ? "A delivery is in progress; this page updates every few seconds."
    : "This page could not be updated just now; trying again in a few seconds.";
}

/** Everything the customer bought, where each delivery stands and what to do next. */
export function Purchases() {
  const { result, reload } = useLoad(() => unwrap(api.GET("/api/dashboard")), []);
  const items = dataOf(result)?.items ?? [];
  const inProgress = items.some(moving);
  useRefreshWhile(inProgress, reload, result);
  return (
    <>
      <h1>Purchases</h1>
      <p role="status" class="note">
        {statusText(result.state, inProgress)}
      </p>
      <Loaded result={result}>
        {(page) =>
          page.items.length === 0 ? (
            <p>You have not bought anything yet.</p>
          ) : (
            page.items.map((item) => <Purchase key={item.order_item_id} item={item} onChange={reload} />)
          )
        }
      </Loaded>
    </>
  );
}
