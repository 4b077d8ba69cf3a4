import { useCallback, useState } from "preact/hooks";
import { type Schemas, unwrap } from "../../shared/api.ts";
import { formatTime } from "../../shared/format.ts";
import { useLoad } from "../../shared/load.ts";
import { href } from "../../shared/router.ts";
import { Loaded } from "../../shared/ui.tsx";
import { api } from "../context.ts";
import { Deliveries } from "../webhooks/deliveries.tsx";
import { ReplaySection } from "../webhooks/replay-section.tsx";
import { Replays } from "../webhooks/replays.tsx";

function EndpointSummary(props: { endpoint: Schemas["WebhookEndpoint"] }) {
  const { endpoint } = props;
  return (
    <dl>
      <dt>URL</dt>
      <dd>
        <code>{endpoint.url}</code>
      </dd>
      <dt>Events</dt>
      <dd>{endpoint.events.join(", ")}</dd>
      <dt>Description</dt>
      <dd>{endpoint.description ?? "—"}</dd>
      <dt>Created</dt>
      <dd>{formatTime(endpoint.created_at)}</dd>
      {endpoint.previous_secret_expires_at ? (
        <>
          <dt>Previous secret also signs until</dt>
          <dd>{formatTime(endpoint.previous_secret_expires_at)}</dd>
        </>
      ) : null}
    </dl>
  );
}

/** `/admin/webhooks/:id`: one endpoint, sending a window of its events again, and what was sent. */
export function WebhookEndpointPage(props: { id: string }) {
  const { result } = useLoad(
    () => unwrap(api.GET("/api/admin/webhook-endpoints/{id}", { params: { path: { id: props.id } } })),
    [props.id],
  );
  // Moves when the followed replay starts or progresses, so the lists below show it too.
  const [version, setVersion] = useState(0);
  const progressed = useCallback(() => setVersion((n) => n + 1), []);
  const [replayId, setReplayId] = useState("");
  return (
    <>
      <p>
        <a href={href("/webhooks")}>All webhook endpoints</a>
      </p>
      <h1>Webhook endpoint</h1>
      <Loaded result={result}>
        {(endpoint) => (
          <>
            <EndpointSummary endpoint={endpoint} />
            <ReplaySection endpointId={endpoint.id} onProgress={progressed} />
            <Replays endpointId={endpoint.id} version={version} onShowDeliveries={setReplayId} />
            <Deliveries
              endpointId={endpoint.id}
              replayId={replayId}
              version={version}
              onShowAll={() => setReplayId("")}
            />
          </>
        )}
      </Loaded>
    </>
  );
}
