/**
 * The filter chain: an ordered list of filters ending in a handler (k8s.io/apiserver's DefaultBuildHandlerChain,
 * as a plain list instead of nested wrappers).
 */
import type { Filter, RequestContext } from '../context.js';

/** A handler at the end of the chain. */
export type Handler = (ctx: RequestContext) => Promise<void>;

/** Runs `filters` in order, then `handler`. */
export function buildChain(filters: readonly Filter[], handler: Handler): Handler {
  return (ctx) => {
    const step = (i: number): Promise<void> => {
      const filter = filters[i];
      if (filter === undefined) return handler(ctx);
      return filter(ctx, () => step(i + 1));
    };
    return step(0);
  };
}
