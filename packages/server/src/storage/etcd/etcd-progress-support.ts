/**
 * Whether an etcd server's requested progress notifications can be trusted. A progress notification says every
 * event of a watch up to a revision has been sent; before etcd 3.4.25 and 3.5.8 the answer to a progress request
 * travelled outside the stream of events and could overtake events still queued for the watcher (etcd-io/etcd#15220,
 * fixed by #15237), so a revision it names may not have been delivered yet. kube-apiserver uses progress requests
 * (for consistent reads from its cache) only when etcd is new enough; so does this backend.
 */

/** True when etcd `version` (as Maintenance.Status reports it, e.g. `3.4.23`) orders progress notifications with events. */
export function orderedProgressNotifications(version: string): boolean {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (m === null) return false;
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (major !== 3) return major > 3;
  if (minor === 4) return patch >= 25;
  if (minor === 5) return patch >= 8;
  return minor > 5;
}
