export function OrderPage(props: { id: string }) {
  return <h1>OrderPage {props.id}</h1>;
}
