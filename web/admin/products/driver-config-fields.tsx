import { Checkbox, Field, Select } from "../../shared/fields.tsx";
import { type ConfigSchema, type ConfigValue, isObjectValue, propertiesOf, withKey } from "./config-schema.ts";
import type { FormErrors } from "./form-errors.ts";

interface Props {
  /** The object's JSON Schema, from the driver's description. */
  readonly schema: ConfigSchema;
  readonly value: ConfigValue;
  readonly onChange: (value: ConfigValue) => void;
  readonly errors: FormErrors;
  /** JSON pointer of the object, for the API's errors: `/fulfillment_config`. */
  readonly pointer: string;
}

/** One input per key of a driver's configuration schema; a nested object becomes a fieldset of its own. */
export function DriverConfigFields(props: Props) {
  const required = props.schema.required ?? [];
  return (
    <>
      {propertiesOf(props.schema).map(([key, property]) => (
        <ConfigField
          key={key}
          name={key}
          schema={property}
          required={required.includes(key)}
          value={props.value[key]}
          onChange={(entry) => props.onChange(withKey(props.value, key, entry))}
          errors={props.errors}
          pointer={`${props.pointer}/${key}`}
        />
      ))}
    </>
  );
}

function ConfigField(props: {
  name: string;
  schema: ConfigSchema;
  required: boolean;
  value: unknown;
  onChange: (value: unknown) => void;
  errors: FormErrors;
  pointer: string;
}) {
  const { name, schema, required, value, onChange, errors, pointer } = props;
  const error = errors.at(pointer, name);
  const hint = schema.description;
  if (schema.type === "object") {
    return (
      <fieldset>
        <legend>{name}</legend>
        {hint ? <p class="hint">{hint}</p> : null}
        {error ? <p class="error">{error}</p> : null}
        <DriverConfigFields
          schema={schema}
          value={isObjectValue(value) ? value : {}}
          onChange={onChange}
          errors={errors}
          pointer={pointer}
        />
      </fieldset>
    );
  }
  if (schema.type === "boolean") {
    const checked = value === true;
    return (
      <Checkbox label={name} checked={checked} onChange={onChange} hint={hint} error={error} required={required} />
    );
  }
  if (schema.enum) {
    const current = typeof value === "string" ? value : "";
    return (
      <Select
        label={name}
        value={current}
        options={[["", "Not set"], ...schema.enum.map((choice) => [choice, choice] as const)]}
        onChange={(choice) => onChange(choice || undefined)}
        hint={hint}
        error={error}
        required={required}
      />
    );
  }
  if (schema.type === "integer" || schema.type === "number") {
    return (
      <Field
        label={name}
        type="number"
        value={typeof value === "number" ? value : ""}
        min={schema.minimum}
        max={schema.maximum}
        step={schema.type === "integer" ? 1 : "any"}
        required={required}
        hint={hint}
        error={error}
        onInput={(event) => {
          const text = event.currentTarget.value;
          onChange(text === "" ? undefined : Number(text));
        }}
      />
    );
  }
  return (
    <Field
      label={name}
      type={schema.format === "uri" ? "url" : "text"}
      value={typeof value === "string" ? value : ""}
      required={required}
      hint={hint}
      error={error}
      onInput={(event) => onChange(event.currentTarget.value === "" ? undefined : event.currentTarget.value)}
    />
  );
}
