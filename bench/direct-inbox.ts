/**
 * The floor for webhook_ratio: the same inbox insert, job insert and NOTIFY in one transaction,
 * straight through postgres.js at the same concurrency, with no HTTP, signature or parsing.
 * Usage: bun bench/direct-inbox.ts <database url> <concurrency> <seconds>; prints events per second.
 */
import postgres from "postgres";

const [url, concurrency, seconds] = [process.argv[2] ?? "", Number(process.argv[3]), Number(process.argv[4])];
const sql = postgres(url, { max: concurrency, onnotice: () => {} });
let done = 0;
const until = performance.now() + seconds * 1000;
const worker = async (lane: number) => {
  let n = 0;
  while (performance.now() < until) {
    const id = `${process.pid}_${lane}_${++n}`;
    const payload = JSON.stringify({
      id: `evt_direct_${id}`,
      type: "checkout.session.completed",
      data: { object: { id } },
    });
    await sql.begin(async (tx) => {
      const [row] = await tx`
        insert into webhook_inbox (gateway, event_id, event_type, kind, payload)
        values ('gateway_b', ${`evt_direct_${id}`}, 'paid', 'paid', ${payload})
        on conflict (gateway, event_id) do nothing returning id`;
      if (!row) return;
      const job = await tx`
        insert into jobs (kind, payload, run_at, dedupe_key, max_attempts)
        values ('bench_direct', ${tx.json({ inbox_id: row.id })}, now(), ${`inbox:${row.id}`}, null)
        on conflict (dedupe_key) where state in ('pending', 'running') do nothing
        returning id`;
      if (job.length > 0) await tx`select pg_notify('mkt_jobs', 'bench_direct')`;
    });
    done++;
  }
};
const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, (_, lane) => worker(lane)));
console.log(JSON.stringify({ events_per_sec: done / ((performance.now() - started) / 1000) }));
await sql.end({ timeout: 1 });
