-- The job queue (design 6). `max_attempts` null means the deployment's JOB_MAX_ATTEMPTS, resolved
-- by the worker at claim time, so raising the limit during an outage also helps queued jobs.
create table jobs (
  id bigint generated always as identity primary key,
  kind text not null,
  payload jsonb not null default '{}',
  state text not null default 'pending' check (state in ('pending', 'running', 'done', 'dead')),
  attempts integer not null default 0 check (attempts >= 0),
  max_attempts integer check (max_attempts is null or max_attempts > 0),
  run_at timestamptz not null default now(),
  locked_by text,
  locked_until timestamptz,
  last_error text,
  dedupe_key text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- A lease exists exactly while a job runs: completion and release always clear it.
  constraint jobs_lease_shape check ((state = 'running') = (locked_by is not null and locked_until is not null))
);

-- The claim scans only live jobs, oldest due first (graphile-worker's shape).
create index jobs_claim on jobs (run_at, id) where state in ('pending', 'running');
-- One live job per key; the enqueue's `on conflict` names this predicate.
create unique index jobs_dedupe_key on jobs (dedupe_key) where state in ('pending', 'running');
-- Admin listing by state newest first, and the cleanup of old done jobs.
create index jobs_by_state on jobs (state, id);
