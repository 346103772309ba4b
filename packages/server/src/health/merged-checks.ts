/**
 * Checks that answer under one name: kube-apiserver reports a post-start hook once (`poststarthook/start-
 * apiextensions-controllers` covers the CRD naming, establishing and finalizing controllers) and its shared
 * informers together (`informer-sync`), where this server has several probes. Checks sharing a name become one,
 * in the place of the first, failing with the first failure's reason (prefixed by the probe's own name when it has
 * one apart from the shared one).
 */
import type { HealthCheck } from './health-check.js';

/** A check reported under another name; `probe` is its own. */
export type ReportedCheck = HealthCheck & { readonly probe: string };

/** A check reported under `name`, keeping the probe's own name for its failure reasons. */
export function reportedAs(name: string, check: HealthCheck): ReportedCheck {
  return { name, probe: check.name, check: () => check.check() };
}

/** One check per name, in the order of first appearance. */
export function mergeChecks(checks: readonly HealthCheck[]): HealthCheck[] {
  const byName = new Map<string, HealthCheck[]>();
  for (const c of checks) {
    const same = byName.get(c.name);
    if (same === undefined) byName.set(c.name, [c]);
    else same.push(c);
  }
  return [...byName.entries()].map(([name, group]) => (group.length === 1 && !('probe' in group[0]!) ? group[0]! : {
    name,
    async check() {
      const reasons = await Promise.all(group.map((c) => c.check()));
      const i = reasons.findIndex((r) => r !== undefined);
      if (i < 0) return undefined;
      const probe = (group[i] as { probe?: string }).probe;
      return probe === undefined || probe === name ? reasons[i] : `${probe}: ${reasons[i]!}`;
    },
  }));
}
