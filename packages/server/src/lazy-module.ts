/**
 * Libraries loaded on first use instead of at start. Most of a start is module loading, and several libraries serve
 * only requests or objects a fresh server may never see (certificate requests, tokens, JSONPath columns, JSON
 * patches): each is loaded by the first call that needs it. Written by hand: two memoized loaders over node's own
 * `require` and `import()`.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A CommonJS library loaded synchronously by the first call, for code that must stay synchronous (validation);
 * `prepare` runs once after loading (a provider to set).
 */
export function lazyRequire<T>(specifier: string, prepare?: (loaded: T) => void): () => T {
  let loaded: T | undefined;
  return () => {
    if (loaded === undefined) {
      const value = require(specifier) as T;
      prepare?.(value);
      loaded = value;
    }
    return loaded;
  };
}

/** A module imported by the first call; every call answers the same promise. */
export function lazyImport<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= load());
}
