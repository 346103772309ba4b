/**
 * APIService objects (apiregistration/v1) as the aggregator reads them, with kube-aggregator's helpers: the name
 * `<version>.<group>`, Local (no service) or a Service reference, and the Available condition.
 */
import type { KubeObject } from '@svc-apiserver/api';

/** `spec.service`. */
export interface ApiServiceReference {
  readonly namespace?: string;
  readonly name?: string;
  readonly port?: number;
}

/** `spec`. */
export interface ApiServiceSpec {
  readonly group?: string;
  readonly version?: string;
  readonly service?: ApiServiceReference | null;
  readonly caBundle?: string;
  readonly insecureSkipTLSVerify?: boolean;
  readonly groupPriorityMinimum?: number;
  readonly versionPriority?: number;
}

/** An Available condition. */
export interface ApiServiceCondition {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly lastTransitionTime?: string;
  readonly reason?: string;
  readonly message?: string;
}

/** An APIService. */
export type ApiService = KubeObject & { spec?: ApiServiceSpec; status?: { conditions?: readonly ApiServiceCondition[] } };

/** The spec (empty when absent). */
export function apiServiceSpec(a: ApiService): ApiServiceSpec {
  return typeof a.spec === 'object' && a.spec !== null ? a.spec : {};
}

/** True for an APIService served by this server itself (no service reference). */
export function isLocal(a: ApiService): boolean {
  const s = apiServiceSpec(a).service;
  return s === undefined || s === null;
}

/** The Available condition. */
export function availableCondition(a: ApiService): ApiServiceCondition | undefined {
  const conditions = a.status?.conditions;
  return Array.isArray(conditions) ? conditions.find((c) => c.type === 'Available') : undefined;
}

/** The APIService name of a group-version: `v1.apps`, `v1.` for the core group. */
export function apiServiceName(group: string, version: string): string {
  return `${version}.${group}`;
}
