/**
 * The shape of every id the database assigns. A lookup by anything else finds nothing without
 * asking the database, which would refuse to cast it to `uuid`. The HTTP schemas state the same
 * shape as JSON Schema's `format: "uuid"` (`Uuid` in adapters/http/shared-schemas.ts).
 */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (id: string): boolean => UUID.test(id);
