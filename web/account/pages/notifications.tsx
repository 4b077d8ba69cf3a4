import { useRef, useState } from "preact/hooks";
import { type Schemas, unwrap } from "../../shared/api.ts";
import { Checkbox } from "../../shared/fields.tsx";
import { formatTime } from "../../shared/format.ts";
import { dataOf, useLoad } from "../../shared/load.ts";
import { ActionButton, ErrorNote, Loaded } from "../../shared/ui.tsx";
import { Card } from "../card.tsx";
import { api } from "../context.ts";

type Notification = Schemas["Notification"];
type NotificationPage = Schemas["NotificationPage"];

function Entry(props: { notification: Notification; onRead: (after: Notification) => void }) {
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
          onDone={props.onRead}
        />
      )}
    </Card>
  );
}

/** The pages after the first, fetched one at a time; they belong to one first page and go with it. */
interface Older {
  readonly after: NotificationPage | undefined;
  readonly items: readonly Notification[];
  readonly next: string | null;
  readonly busy: boolean;
  readonly error?: unknown;
}

const listOf = (unreadOnly: boolean, cursor?: string) =>
  unwrap(api.GET("/api/notifications", { params: { query: { ...(unreadOnly ? { unread: "true" } : {}), cursor } } }));

/**
 * The notifications loaded so far, newest first: the first page, then older ones on request. A
 * notification read here is shown read at once; "Mark all read" loads the list again from the top.
 */
function useNotifications(unreadOnly: boolean) {
  const { result, reload } = useLoad(() => listOf(unreadOnly), [unreadOnly]);
  const first = dataOf(result);
  const [olderState, setOlder] = useState<Older>({ after: undefined, items: [], next: null, busy: false });
  const [read, setRead] = useState<ReadonlyMap<string, Notification>>(new Map());
  const asked = useRef<{ after: NotificationPage | undefined; cursor: string } | undefined>(undefined);
  const older: Older =
    olderState.after === first && first
      ? olderState
      : { after: first, items: [], next: first?.next_cursor ?? null, busy: false };
  const seen = new Set(first?.items.map((n) => n.id));
  const items = [...(first?.items ?? []), ...older.items.filter((n) => !seen.has(n.id))].map(
    (n) => read.get(n.id) ?? n,
  );
  const showOlder = async () => {
    const { after, next: cursor } = older;
    if (!cursor || (asked.current?.after === after && asked.current?.cursor === cursor)) return;
    asked.current = { after, cursor };
    setOlder({ ...older, busy: true, error: undefined });
    try {
      const page = await listOf(unreadOnly, cursor);
      setOlder((now) => {
        if (now.after !== after) return now;
        const have = new Set(now.items.map((n) => n.id));
        const fresh = page.items.filter((n) => !have.has(n.id));
        return { after, items: [...now.items, ...fresh], next: page.next_cursor, busy: false };
      });
    } catch (error) {
      asked.current = undefined;
      setOlder((now) => (now.after === after ? { ...now, busy: false, error } : now));
    }
  };
  return {
    result,
    reload,
    items,
    older,
    showOlder,
    markRead: (after: Notification) => setRead((now) => new Map(now).set(after.id, after)),
  };
}

function unreadText(unread: number, shown: number, more: boolean): string {
  if (!more) return unread === 0 ? "All read." : `${unread} unread.`;
  const among = `of the ${shown} shown`;
  return unread === 0
    ? `None unread ${among}; older ones may be.`
    : `${unread} unread ${among}; older ones not counted.`;
}

/** What the marketplace told the customer about their deliveries, newest first. */
export function Notifications() {
  const [unreadOnly, setUnreadOnly] = useState(false);
  const { result, reload, items, older, showOlder, markRead } = useNotifications(unreadOnly);
  const unread = items.filter((n) => !n.read_at).length;
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
        {() =>
          items.length === 0 ? (
            <p>{unreadOnly ? "Nothing unread." : "No notifications yet."}</p>
          ) : (
            <>
              <p class="note">{unreadText(unread, items.length, older.next !== null)}</p>
              {items.map((notification) => (
                <Entry key={notification.id} notification={notification} onRead={markRead} />
              ))}
              {older.error ? <ErrorNote error={older.error} /> : null}
              {older.next ? (
                <button
                  type="button"
                  class="secondary"
                  onClick={showOlder}
                  disabled={older.busy}
                  aria-busy={older.busy}
                >
                  Show older notifications
                </button>
              ) : null}
            </>
          )
        }
      </Loaded>
    </>
  );
}
