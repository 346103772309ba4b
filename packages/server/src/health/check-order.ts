/**
 * The order kube-apiserver 1.27's health endpoints list their checks in: `ping`, `log`, `etcd`, `etcd-readiness`,
 * `informer-sync`, the post-start hooks in the order kube-apiserver registers them (those this server has), then
 * `shutdown`. Checks kube does not have keep their relative order after the hooks it has.
 */
import type { HealthCheck } from './health-check.js';

/** kube-apiserver's checks and post-start hooks, in its order. */
const kubeOrder: readonly string[] = [
  'ping',
  'log',
  'etcd',
  'etcd-readiness',
  'informer-sync',
  'poststarthook/start-apiextensions-controllers',
  'poststarthook/crd-informer-synced',
  'poststarthook/start-system-namespaces-controller',
  'poststarthook/bootstrap-controller',
  'poststarthook/rbac/bootstrap-roles',
  'poststarthook/scheduling/bootstrap-system-priority-classes',
  'poststarthook/priority-and-fairness-config-producer',
  'poststarthook/start-cluster-authentication-info-controller',
  'poststarthook/start-kube-apiserver-identity-lease-controller',
  'poststarthook/start-deprecated-kube-apiserver-identity-lease-garbage-collector',
  'poststarthook/start-kube-apiserver-identity-lease-garbage-collector',
  'poststarthook/apiservice-status-available-controller',
  'poststarthook/kube-apiserver-autoregistration',
];

const rank = (name: string): number => {
  if (name === 'shutdown') return kubeOrder.length + 1;
  const i = kubeOrder.indexOf(name);
  return i < 0 ? kubeOrder.length : i;
};

/** `checks` in kube-apiserver's order (a stable sort). */
export function inKubeOrder<T extends HealthCheck>(checks: readonly T[]): T[] {
  return checks.map((c, i) => ({ c, i })).sort((a, b) => rank(a.c.name) - rank(b.c.name) || a.i - b.i).map(({ c }) => c);
}
