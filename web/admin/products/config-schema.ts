/**
 * Reading a driver's `config_schema` (JSON Schema from GET /api/admin/fulfillment-drivers): the
 * form is generated from it, so the client holds no copy of any driver's rules.
 */
export interface ConfigSchema {
  readonly type?: string;
  readonly description?: string;
  readonly enum?: readonly string[];
  readonly format?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly properties?: Readonly<Record<string, ConfigSchema>>;
  readonly required?: readonly string[];
}

export type ConfigValue = Readonly<Record<string, unknown>>;

export const propertiesOf = (schema: ConfigSchema) => Object.entries(schema.properties ?? {});

export const isObjectValue = (value: unknown): value is ConfigValue =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `value` without the keys the schema does not know: another driver's settings stay behind. */
export function keepSchemaKeys(schema: ConfigSchema, value: ConfigValue): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, property] of propertiesOf(schema)) {
    const entry = value[key];
    if (entry === undefined) continue;
    kept[key] = property.type === "object" && isObjectValue(entry) ? keepSchemaKeys(property, entry) : entry;
  }
  return kept;
}

/** `value` with `key` set, or removed when `entry` is undefined or an empty object. */
export function withKey(value: ConfigValue, key: string, entry: unknown): ConfigValue {
  const { [key]: _removed, ...rest } = value;
  const empty = entry === undefined || (isObjectValue(entry) && Object.keys(entry).length === 0);
  return empty ? rest : { ...rest, [key]: entry };
}

/** The JSON pointer of every field the schema describes, objects included. */
export function pointersOf(schema: ConfigSchema, base: string): string[] {
  return propertiesOf(schema).flatMap(([key, property]) => [
    `${base}/${key}`,
    ...(property.type === "object" ? pointersOf(property, `${base}/${key}`) : []),
  ]);
}
