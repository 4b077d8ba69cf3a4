/** Thrown for the first invalid variable; main prints `message` as the one line it exits with. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
    value: string | undefined,
  ) {
    super(`Invalid configuration: ${variable} ${reason}${value === undefined ? "" : ` (got "${value}")`}`);
    this.name = "ConfigError";
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

function present(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

export function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^-?\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max}`, raw);
  }
  return value;
}

export function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(", ")}`, raw);
  }
  return raw as T;
}

export function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  throw new ConfigError(name, "must be true or false", raw);
}

export function text(env: Env, name: string): string | undefined {
  return present(env, name);
}

export function url(env: Env, name: string, protocols: readonly string[]): string | undefined {
  const raw = present(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, "must be a valid URL", undefined);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(" or ")}`, undefined);
  }
  return raw;
}

export function currency(env: Env, name: string, fallback: string): string {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  if (!/^[A-Z]{3}$/.test(raw)) throw new ConfigError(name, "must be a 3-letter ISO 4217 code", raw);
  return raw;
}
