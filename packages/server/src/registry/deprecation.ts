/**
 * Deprecated API versions (document 1 §Events 3, kube's pkg/endpoints/deprecation and the prerelease-lifecycle
 * data of 1.27): a request to a deprecated version gets a `Warning` header naming the replacement, sets the gauge
 * `apiserver_requested_deprecated_apis` to 1, and its audit event carries the deprecation annotations.
 */
import { apiVersionOf, type Names } from '@svc-apiserver/api';
import { serverMetrics, type Gauge, type MetricsRegistry } from '../metrics/metrics-registry.js';
import type { ResourceDef } from './resource-def.js';

/** When a served version was deprecated and is removed, and what replaces it. */
interface DeprecationEntry {
  readonly deprecatedIn: string;
  readonly removedIn?: string;
  readonly replacement?: { readonly groupKey: string; readonly version: string; readonly kind: string };
}

/** The deprecated versions 1.27 serves, by `<groupKey>/<version>/<resource>`. */
const deprecated: Readonly<Record<string, DeprecationEntry>> = {
  '/v1/componentstatuses': { deprecatedIn: '1.19' },
  'flowcontrol.apiserver/v1beta2/flowschemas': {
    deprecatedIn: '1.26', removedIn: '1.29', replacement: { groupKey: 'flowcontrol.apiserver', version: 'v1beta3', kind: 'FlowSchema' },
  },
  'flowcontrol.apiserver/v1beta2/prioritylevelconfigurations': {
    deprecatedIn: '1.26', removedIn: '1.29', replacement: { groupKey: 'flowcontrol.apiserver', version: 'v1beta3', kind: 'PriorityLevelConfiguration' },
  },
};

/** What a request to a deprecated version reports. */
export interface DeprecationNotice {
  /** The `Warning` header text, worded as kube-apiserver words it. */
  readonly warning: string;
  /** `1.29`, or `''` when no removal is scheduled. */
  readonly removedRelease: string;
  /** The audit annotations of the request (`<domain>/deprecated`, `<domain>/removed-release`). */
  readonly auditAnnotations: Readonly<Record<string, string>>;
}

/** The deprecation notice of a served resource, undefined when its version is not deprecated. */
export function deprecationOf(
  names: Names, def: Pick<ResourceDef, 'groupKey' | 'version' | 'resource' | 'group' | 'kind'> & { readonly custom?: ResourceDef['custom'] },
): DeprecationNotice | undefined {
  // A deprecated CRD version warns with its own deprecationWarning (or kube's default wording).
  const customWarning = def.custom?.deprecationWarning;
  if (customWarning !== undefined) return { warning: customWarning, removedRelease: '', auditAnnotations: { [names.domain('deprecated')]: 'true' } };
  const entry = deprecated[`${def.groupKey}/${def.version}/${def.resource}`];
  if (entry === undefined) return undefined;
  let warning = `${apiVersionOf(def.group, def.version)} ${def.kind} is deprecated in v${entry.deprecatedIn}+`;
  if (entry.removedIn !== undefined) warning += `, unavailable in v${entry.removedIn}+`;
  const r = entry.replacement;
  if (r !== undefined) warning += `; use ${apiVersionOf(names.group(r.groupKey), r.version)} ${r.kind}`;
  const auditAnnotations: Record<string, string> = { [names.domain('deprecated')]: 'true' };
  if (entry.removedIn !== undefined) auditAnnotations[names.domain('removed-release')] = entry.removedIn;
  return { warning, removedRelease: entry.removedIn ?? '', auditAnnotations };
}

/** kube's `apiserver_requested_deprecated_apis` in `metrics` (the server's by default), declared on first use. */
export function deprecatedApisGauge(metrics: MetricsRegistry = serverMetrics): Gauge {
  return metrics.gauge('apiserver_requested_deprecated_apis',
    'Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
    ['group', 'version', 'resource', 'subresource', 'removed_release'], 'STABLE');
}

/**
 * Records a request to a deprecated version: the gauge set to 1, the warning added, and the notice returned so
 * the caller's audit event can carry its annotations.
 */
export function recordDeprecatedRequest(
  names: Names, def: ResourceDef, subresource: string, warn: (text: string) => void, metrics: MetricsRegistry = serverMetrics,
): DeprecationNotice | undefined {
  const notice = deprecationOf(names, def);
  if (notice === undefined) return undefined;
  warn(notice.warning);
  deprecatedApisGauge(metrics).set(
    { group: def.group, version: def.version, resource: def.resource, subresource, removed_release: notice.removedRelease }, 1,
  );
  return notice;
}
