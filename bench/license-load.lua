-- wrk load for license validation (bench/licenses.ts): every request posts `{"key": ...}` with the
-- next of the keys in a file, one key a line, so the lookups rotate through thousands of licenses
-- instead of one cached row. Usage:
--   wrk -t <threads> -c <connections> -d <seconds>s -s bench/license-load.lua <url> -- <keys file>
-- Requests are formatted in `init` (a few MB at most: milliseconds); each thread starts at its own
-- offset. An answer counts as `ok` only when it is a 200 that says `"valid":true`. `done` prints one
-- line, `WRK_RESULT {json}`, with the answers summed over threads.

local threads = {}

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

-- Per-thread counters; globals, so that `done` can read them through `thread:get`.
ok = 0
invalid = 0
non200 = 0
local requests, count, index

function init(args)
  requests = {}
  for key in io.lines(args[1]) do
    if #key > 0 then
      requests[#requests + 1] =
        wrk.format("POST", nil, { ["Content-Type"] = "application/json" }, '{"key":"' .. key .. '"}')
    end
  end
  count = #requests
  if count == 0 then
    error("no keys in " .. args[1])
  end
  index = (id * 7919) % count
end

function request()
  index = index % count + 1
  return requests[index]
end

function response(status, headers, body)
  if status ~= 200 then
    non200 = non200 + 1
  elseif body:find('"valid":true', 1, true) then
    ok = ok + 1
  else
    invalid = invalid + 1
  end
end

function done(summary, latency)
  local sums = { ok = 0, invalid = 0, non200 = 0 }
  for _, thread in ipairs(threads) do
    for key, _ in pairs(sums) do
      sums[key] = sums[key] + (thread:get(key) or 0)
    end
  end
  local errors = summary.errors
  io.write(string.format(
    'WRK_RESULT {"duration_us":%d,"requests":%d,"ok":%d,"invalid":%d,"non200":%d,"socket_errors":%d,'
      .. '"p50_us":%d,"p99_us":%d,"max_us":%d}\n',
    summary.duration, summary.requests, sums.ok, sums.invalid, sums.non200,
    errors.connect + errors.read + errors.write + errors.timeout,
    latency:percentile(50), latency:percentile(99), latency.max
  ))
end
