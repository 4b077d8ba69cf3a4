/**
 * Serialized responses kept until the next invalidation. A generation counter stops a response
 * computed before an invalidation from being stored after it.
 */
export function createResponseCache(maxEntries = 1000) {
  const entries = new Map<string, string>();
  let generation = 0;
  return {
    async get(key: string, compute: () => Promise<unknown>): Promise<string> {
      const hit = entries.get(key);
      if (hit !== undefined) return hit;
      const started = generation;
      const body = JSON.stringify(await compute());
      if (started === generation) {
        if (entries.size >= maxEntries) entries.clear();
        entries.set(key, body);
      }
      return body;
    },
    invalidate() {
      generation++;
      entries.clear();
    },
  };
}
