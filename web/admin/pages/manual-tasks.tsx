export function ManualTasks() {
  return <h1>ManualTasks</h1>;
}
