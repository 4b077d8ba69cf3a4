export function Fulfillments() {
  return <h1>Fulfillments</h1>;
}
