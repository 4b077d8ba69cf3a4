import { useState } from "preact/hooks";
import { type Schemas, unwrap } from "../../shared/api.ts";
import { Checkbox } from "../../shared/fields.tsx";
import { formatTime } from "../../shared/format.ts";
import { useLoad } from "../../shared/load.ts";
import { ActionButton, Loaded } from "../../shared/ui.tsx";
import { Card } from "../card.tsx";
import { api } from "../context.ts";

type Notification = Schemas["Notification"];

function Entry(props: { notification: Notification; onChange: () => void }) {
  const { notification } = props;
  const orderId = typeof notification.data.order_id === "string" ? notification.data.order_id : undefined;
  return (
    <Card
      heading={
        <>
          {notification.read_at ? "" : <strong>New: </strong>}
          {notification.title}
        </>
      }
    >
      <p class="note">{formatTime(notification.created_at)}</p>
      <p>{notification.body}</p>
      {orderId ? (
        <p>
          <a href={`/orders/${encodeURIComponent(orderId)}`}>See the order</a>
        </p>
      ) : null}
      {notification.read_at ? (
        <p class="note">Read {formatTime(notification.read_at)}</p>
      ) : (
        <ActionButton
          label="Mark as read"
          run={() => unwrap(api.POST("/api/notifications/{id}/read", { params: { path: { id: notification.id } } }))}
          onDone={props.onChange}
        />
      )}
    </Card>
  );
}

/** What the marketplace told the customer about their deliveries, newest first. */
export function Notifications() {
  const [unreadOnly, setUnreadOnly] = useState(false);
  const { result, reload } = useLoad(
    () => unwrap(api.GET("/api/notifications", { params: { query: unreadOnly ? { unread: "true" } : {} } })),
    [unreadOnly],
  );
  const unread = result.state === "loaded" ? result.data.items.filter((n) => !n.read_at).length : 0;
  return (
    <>
      <h1>Notifications</h1>
      <div class="toolbar">
        <Checkbox label="Unread only" checked={unreadOnly} onChange={setUnreadOnly} />
        <ActionButton
          label="Mark all read"
          run={() => unwrap(api.POST("/api/notifications/read-all"))}
          describe={(answer) => (answer.updated === 1 ? "1 marked read." : `${answer.updated} marked read.`)}
          onDone={reload}
        />
      </div>
      <Loaded result={result}>
        {(page) =>
          page.items.length === 0 ? (
            <p>{unreadOnly ? "Nothing unread." : "No notifications yet."}</p>
          ) : (
            <>
              <p class="note">{unread === 0 ? "All read." : `${unread} unread.`}</p>
              {page.items.map((notification) => (
                <Entry key={notification.id} notification={notification} onChange={reload} />
              ))}
            </>
          )
        }
      </Loaded>
    </>
  );
}
