export function ProductEditorPage() {
  return <h1>ProductEditorPage</h1>;
}
