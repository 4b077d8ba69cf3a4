export interface SecretListing {
  readonly ref: string;
  readonly source: "stored" | "environment";
  readonly updated_at: string | null;
}

/**
 * Resolves a secret reference (`credentials_ref`, gateway keys) to its value. Values come from an
 * encrypted store written through the admin API or from the environment; they are never returned
 * by the API, logged, or kept in product records.
 */
export interface SecretStore {
  resolve(ref: string): Promise<string | undefined>;
  put(ref: string, value: string): Promise<void>;
  list(): Promise<SecretListing[]>;
}
