import { unwrap } from "../../shared/api.ts";
import { useLoad } from "../../shared/load.ts";
import { Loaded } from "../../shared/ui.tsx";
import { api } from "../context.ts";
import { GatewayCard } from "../operations/gateway-card.tsx";

export function Gateways() {
  const { result } = useLoad(
    () =>
      Promise.all([unwrap(api.GET("/api/admin/gateway_a/settings")), unwrap(api.GET("/api/admin/gateway_b/settings"))]),
    [],
  );
  return (
    <>
      <h1>Gateways</h1>
      <p class="note">
        The payment gateways' settings. Secrets are never shown: only whether each is set, and the name it is kept
        under.
      </p>
      <Loaded result={result}>
        {(gateways) => (
          <>
            {gateways.map((settings) => (
              <GatewayCard key={settings.gateway} settings={settings} />
            ))}
          </>
        )}
      </Loaded>
    </>
  );
}
