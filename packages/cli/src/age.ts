/**
 * kubectl's age of a timestamp (apimachinery's duration.HumanDuration through translateTimestampSince): `45s`,
 * `3m20s`, `15m`, `5h3m`, `20h`, `3d4h`, `200d`, `2y30d`, `9y`; `<unknown>` when unset.
 */

/** apimachinery's HumanDuration of `ms` milliseconds: the precision falls as the duration grows. */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  // up to a second in the future reads as now: clocks differ a little
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 8) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (hours < 24 * 365 * 8) return days % 365 === 0 ? `${years}y` : `${years}y${days % 365}d`;
  return `${years}y`;
}

/** The age of `timestamp` at `now`. */
export function age(timestamp: string | null | undefined, now: number = Date.now()): string {
  const t = timestamp ? Date.parse(timestamp) : NaN;
  return Number.isNaN(t) ? '<unknown>' : humanDuration(now - t);
}
