/**
 * Panic recovery (k8s.io/apiserver's WithPanicRecovery): a throw anywhere below becomes a 500 InternalError Status,
 * is logged with the request, and the server keeps serving.
 */
import { internalError, serviceUnavailable } from '@svc-apiserver/api';
import type { Filter } from '../context.js';
import { responded, writeStatus } from '../response-writer.js';

/** Where recovered failures are reported. */
export type PanicLogger = (message: string, error: unknown) => void;

/** The panic-recovery filter. */
export function panicRecovery(log: PanicLogger): Filter {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      // The store being unreachable (etcd down) is not a bug: the client gets a 503 it retries, as kube's
      // storage errors become retriable Statuses.
      if (storageUnavailable(error)) {
        if (!responded(ctx)) writeStatus(ctx, { ...serviceUnavailable('storage is unavailable, retry later'), details: { retryAfterSeconds: 1 } });
        return;
      }
      log(`panic serving ${ctx.method} ${ctx.path}`, error);
      if (!responded(ctx)) writeStatus(ctx, internalError('an unexpected error occurred while serving the request'));
    }
  };
}

/** True for a Backend's `Unavailable` rejection, however deep in a cause chain. */
function storageUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if ((e as { code?: unknown }).code === 'Unavailable') return true;
  }
  return false;
}
