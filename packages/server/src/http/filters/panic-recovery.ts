/**
 * Panic recovery (k8s.io/apiserver's WithPanicRecovery): a throw anywhere below becomes a 500 InternalError Status,
 * is logged with the request, and the server keeps serving.
 */
import { internalError } from '@svc-apiserver/api';
import type { Filter } from '../context.js';

/** Where recovered failures are reported. */
export type PanicLogger = (message: string, error: unknown) => void;

/** The panic-recovery filter. */
export function panicRecovery(log: PanicLogger): Filter {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      log(`panic serving ${ctx.method} ${ctx.path}`, error);
      if (!ctx.responded) ctx.writeStatus(internalError('an unexpected error occurred while serving the request'));
    }
  };
}
