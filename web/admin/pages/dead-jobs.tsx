export function DeadJobs() {
  return <h1>DeadJobs</h1>;
}
