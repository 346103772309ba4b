/** The Error a Backend rejects with when the store itself fails (I/O error, closed, lost connection). */
export interface UnavailableError extends Error {
  readonly code: 'Unavailable';
}

/** Wraps a store failure (or describes one) as an `Unavailable` error, keeping the cause. */
export function unavailable(cause: unknown, message?: string): UnavailableError {
  const text = message ?? (cause instanceof Error ? cause.message : String(cause));
  return Object.assign(new Error(`storage unavailable: ${text}`, { cause }), { code: 'Unavailable' as const });
}
