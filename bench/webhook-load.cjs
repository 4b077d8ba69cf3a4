// Load generator for webhook_ratio (Node + autocannon): every request is a new, correctly signed
// gateway_b event, so the marketplace verifies and stores each one. Prints autocannon's JSON result.
const crypto = require("node:crypto");
const autocannon = require("autocannon");

const [url, secret, connections, duration] = process.argv.slice(2);
let sequence = 0;
const instance = autocannon(
  {
    url,
    connections: Number(connections),
    duration: Number(duration),
    requests: [
      {
        method: "POST",
        setupRequest(request) {
          const id = `${process.pid}_${++sequence}`;
          const body = JSON.stringify({
            id: `evt_load_${id}`,
            object: "event",
            type: "checkout.session.completed",
            created: Math.floor(Date.now() / 1000),
            data: {
              object: {
                id: `cs_load_${id}`,
                object: "checkout.session",
                client_reference_id: crypto.randomUUID(),
                payment_status: "paid",
                amount_total: 2900,
                currency: "usd",
                payment_intent: `pi_load_${id}`,
                metadata: {},
              },
            },
          });
          const t = Math.floor(Date.now() / 1000);
          const v1 = crypto.createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
          return {
            ...request,
            body,
            headers: { "content-type": "application/json", "stripe-signature": `t=${t},v1=${v1}` },
          };
        },
      },
    ],
  },
  (error, result) => {
    if (error) throw error;
    process.stdout.write(
      JSON.stringify({ requests_per_sec: result.requests.average, non2xx: result.non2xx, errors: result.errors }),
    );
  },
);
autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
