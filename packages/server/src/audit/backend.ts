/**
 * An audit backend (k8s.io/apiserver's audit.Backend): takes events without ever making a request wait on a
 * write, and flushes what it holds at shutdown.
 */
import type { AuditEvent } from './event.js';

/** Where audit events go. */
export interface AuditBackend {
  /** The backend's name in metrics and logs (`log`, `webhook`). */
  readonly name: string;
  /** Takes events; returns at once (the write happens later, or the events are counted as dropped). */
  processEvents(events: readonly AuditEvent[]): void;
  /** Writes or sends what is still held, then releases the backend's resources. */
  shutdown(): Promise<void>;
}

/** Several backends as one (k8s.io/apiserver's union backend): every event goes to each. */
export function unionBackend(backends: readonly AuditBackend[]): AuditBackend {
  return {
    name: backends.map((b) => b.name).join(','),
    processEvents(events) {
      for (const b of backends) b.processEvents(events);
    },
    async shutdown() {
      await Promise.all(backends.map((b) => b.shutdown()));
    },
  };
}
