/** Keys of every test marketplace (plain values, importable outside `bun test` by the log scan). */
export const TEST_JWT_SECRET = "test-secret-0123456789-abcdefghijklmnop";
export const TEST_SECRETS_KEY = "test-secrets-key-0123456789-abcdefghijkl";
