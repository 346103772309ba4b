/**
 * The revision rules every backend applies the same way (etcd's): a read at revision 0 reads the current revision,
 * a read below the compacted revision fails with `Compacted`, one above the current revision with `FutureRevision`;
 * a watch after revision R needs the history from R + 1 on.
 */
import type { BackendError, BackendResult } from './backend.js';

/** The revision a read at `requested` reads at, or why it cannot. */
export function checkReadRevision(
  requested: number | undefined,
  current: number,
  compacted: number,
): BackendResult<number, 'Compacted' | 'FutureRevision'> {
  const revision = requested === undefined || requested === 0 ? current : requested;
  if (revision > current) return { ok: false, error: { code: 'FutureRevision', currentRevision: current } };
  if (revision < compacted) return { ok: false, error: { code: 'Compacted', compactRevision: compacted } };
  return { ok: true, value: revision };
}

/** The `Compacted` error of a watch after `afterRevision`, if its history is gone. */
export function compactedWatch(
  afterRevision: number,
  compacted: number,
): Extract<BackendError, { code: 'Compacted' }> | undefined {
  return afterRevision + 1 < compacted ? { code: 'Compacted', compactRevision: compacted } : undefined;
}
