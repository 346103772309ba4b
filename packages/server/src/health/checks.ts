/**
 * The server's own health checks: `ping`, `log`, the store's `etcd` (livez, healthz, readyz) and `etcd-readiness`
 * (readyz), `shutdown` and the grace-period wrapper for livez.
 */
import type { Backend } from '../storage/backend.js';
import type { HealthCheck } from './health-check.js';

/** Always healthy: the server answers (healthz.PingHealthz). */
export const pingCheck: HealthCheck = { name: 'ping', check: async () => undefined };

/**
 * Logging works (healthz.LogHealthz checks that log flushing is not stuck): healthy while the log stream accepts
 * writes without a large backlog.
 */
export function logCheck(stream: NodeJS.WritableStream & { writableLength?: number; destroyed?: boolean } = process.stderr): HealthCheck {
  return {
    name: 'log',
    async check() {
      if (stream.destroyed) return 'the log stream is closed';
      if ((stream.writableLength ?? 0) > 16 * 1024 * 1024) return 'the log stream is not draining';
      return undefined;
    },
  };
}

/**
 * The store answers a read within a timeout: kube-apiserver's `etcd` check (`--etcd-healthcheck-timeout`, 2 s) and,
 * named `etcd-readiness`, its readyz-only twin (`--etcd-readycheck-timeout`, 2 s). It reads the current revision,
 * a real round trip to etcd or SQLite; the name is kube's on either store.
 */
export function storageCheck(backend: Backend, options: { name?: 'etcd' | 'etcd-readiness'; timeoutMs?: number } = {}): HealthCheck {
  const timeoutMs = options.timeoutMs ?? 2000;
  return {
    name: options.name ?? 'etcd',
    async check() {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(`storage did not answer within ${timeoutMs}ms`), timeoutMs);
      });
      try {
        return await Promise.race([backend.currentRevision().then(() => undefined), timeout]);
      } catch (e) {
        return `storage read failed: ${(e as Error).message}`;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** Fails once graceful shutdown began, so load balancers stop sending traffic (readyz `shutdown`). */
export function shutdownCheck(shuttingDown: () => boolean): HealthCheck {
  return { name: 'shutdown', check: async () => (shuttingDown() ? 'process is shutting down' : undefined) };
}

/** A check that is healthy once `ready()` is true (informer-sync, bootstrap steps). */
export function flagCheck(name: string, ready: () => boolean, reason: string): HealthCheck {
  return { name, check: async () => (ready() ? undefined : reason) };
}

/**
 * Ignores failures of a check until `graceUntil` (epoch ms): --livez-grace-period lets liveness assume startup
 * steps will finish within the grace period.
 */
export function withGracePeriod(check: HealthCheck, graceUntil: number, now: () => number = Date.now): HealthCheck {
  return {
    name: check.name,
    async check() {
      const reason = await check.check();
      return reason !== undefined && now() < graceUntil ? undefined : reason;
    },
  };
}
