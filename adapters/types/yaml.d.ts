/** Bun imports YAML files as parsed values. */
declare module "*.yaml" {
  const value: unknown;
  export default value;
}
