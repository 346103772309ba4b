/**
 * kubectl's short age of a timestamp (`45s`, `12m`, `5h`, `3d`), as its printers show it.
 */

/** The age of `timestamp` at `now`. */
export function age(timestamp: string | undefined, now: number = Date.now()): string {
  if (!timestamp) return '<unknown>';
  const seconds = Math.max(0, Math.floor((now - Date.parse(timestamp)) / 1000));
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h`;
  return `${Math.floor(hours / 24)}d`;
}
