/**
 * Cell formatting shared by the printers, as kube-apiserver's printers format: ages in apimachinery's
 * `duration.HumanDuration` style, `<unknown>` for unset times, labels as `k=v,...` or `<none>`.
 */

type Json = Record<string, unknown>;

/** apimachinery's HumanDuration: `45s`, `3m20s`, `15m`, `5h3m`, `20h`, `3d4h`, `200d`, `2y30d`, `9y`. */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    const years = Math.trunc(hours / 24 / 365);
    return dy === 0 ? `${years}y` : `${years}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/** The printers' translateTimestampSince: the age of an RFC 3339 time, `<unknown>` when unset. */
export function since(timestamp: unknown, now: number): string {
  if (typeof timestamp !== 'string' || timestamp === '') return '<unknown>';
  const t = Date.parse(timestamp);
  if (!Number.isFinite(t)) return '<unknown>';
  return humanDuration(now - t);
}

/** labels.FormatLabels: sorted `k=v` pairs joined by commas, `<none>` when empty. */
export function formatLabels(labels: unknown): string {
  if (labels === null || typeof labels !== 'object') return '<none>';
  const keys = Object.keys(labels).sort();
  if (keys.length === 0) return '<none>';
  return keys.map((k) => `${k}=${String((labels as Json)[k])}`).join(',');
}

/** Reads a nested field (`get(obj, 'spec', 'containers')`); undefined on the way. */
export function get(obj: unknown, ...path: string[]): unknown {
  let cur: unknown = obj;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Json)[p];
  }
  return cur;
}

/** A string field or ''. */
export function str(obj: unknown, ...path: string[]): string {
  const v = get(obj, ...path);
  return typeof v === 'string' ? v : '';
}

/** A number field or 0. */
export function num(obj: unknown, ...path: string[]): number {
  const v = get(obj, ...path);
  return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : 0;
}

/** An array field or []. */
export function list(obj: unknown, ...path: string[]): unknown[] {
  const v = get(obj, ...path);
  return Array.isArray(v) ? v : [];
}

/** An object field or {}. */
export function record(obj: unknown, ...path: string[]): Json {
  const v = get(obj, ...path);
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? v as Json : {};
}

/** A Quantity as printed (`Quantity.String()`; unset is `0`). */
export function quantity(v: unknown): string {
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number') return String(v);
  return '0';
}

/** helper.GetAccessModesAsString: `RWO,ROX,RWX,RWOP` in that order, duplicates removed. */
export function accessModes(modes: unknown): string {
  const set = new Set(Array.isArray(modes) ? modes : []);
  const out: string[] = [];
  if (set.has('ReadWriteOnce')) out.push('RWO');
  if (set.has('ReadOnlyMany')) out.push('ROX');
  if (set.has('ReadWriteMany')) out.push('RWX');
  if (set.has('ReadWriteOncePod')) out.push('RWOP');
  return out.join(',');
}

/** Container names and images, comma-joined (the printers' layoutContainerCells). */
export function containerCells(containers: unknown[]): [string, string] {
  return [containers.map((c) => str(c, 'name')).join(','), containers.map((c) => str(c, 'image')).join(',')];
}
