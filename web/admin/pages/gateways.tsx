export function Gateways() {
  return <h1>Gateways</h1>;
}
