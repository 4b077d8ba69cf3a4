export function ProductPage(props: { id: string }) {
  return <h1>ProductPage {props.id}</h1>;
}
