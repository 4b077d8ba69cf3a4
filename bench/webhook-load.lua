-- wrk load for the webhook intake (bench/webhooks.ts): every request posts the next of the
-- pre-signed, unique gateway_b events, never one twice. Usage:
--   wrk -t <threads> -c <connections> -d <seconds>s -s bench/webhook-load.lua <url> -- <events file prefix>
-- Thread i reads `<prefix>.<i>`, one event per line: the Stripe-Signature header value, a tab, the
-- body. Lines are read as requests are sent, not in `init`: wrk runs each thread's `init` before
-- starting the next thread but starts its clock only after the last, so a slow `init` would let
-- the first thread send uncounted time. A thread that runs out of events repeats its last one (a
-- duplicate the marketplace still acknowledges) and counts it as `exhausted`, so the caller can
-- refuse the run. `done` prints one line, `WRK_RESULT {json}`, with the answers summed over threads.

local threads = {}

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

-- Per-thread state; globals, so that `done` can read them through `thread:get`.
sent = 0
ok = 0
non2xx = 0
exhausted = 0
local events, last

function init(args)
  local path = args[1] .. "." .. id
  events = assert(io.open(path, "r"))
end

function request()
  sent = sent + 1
  local line = events:read("*l")
  local tab = line and line:find("\t", 1, true)
  if not tab then
    if not last then
      error("no events in the file of thread " .. id)
    end
    exhausted = exhausted + 1
    return last
  end
  last = wrk.format("POST", nil, {
    ["Content-Type"] = "application/json",
    ["Stripe-Signature"] = line:sub(1, tab - 1),
  }, line:sub(tab + 1))
  return last
end

function response(status, headers, body)
  if status >= 200 and status < 300 then
    ok = ok + 1
  else
    non2xx = non2xx + 1
  end
end

function done(summary, latency, requests)
  local sums = { ok = 0, non2xx = 0, exhausted = 0, sent = 0 }
  for _, thread in ipairs(threads) do
    for key, _ in pairs(sums) do
      sums[key] = sums[key] + (thread:get(key) or 0)
    end
  end
  local errors = summary.errors
  io.write(string.format(
    'WRK_RESULT {"duration_us":%d,"requests":%d,"ok":%d,"non2xx":%d,"exhausted":%d,"sent":%d,'
      .. '"connect_errors":%d,"read_errors":%d,"write_errors":%d,"timeouts":%d,"p50_us":%d,"p99_us":%d}\n',
    summary.duration, summary.requests, sums.ok, sums.non2xx, sums.exhausted, sums.sent,
    errors.connect, errors.read, errors.write, errors.timeout,
    latency:percentile(50), latency:percentile(99)
  ))
end
