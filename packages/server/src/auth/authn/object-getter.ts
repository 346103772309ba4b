/**
 * Read access to the core objects token methods look up (bootstrap-token Secrets; service accounts, their
 * Secrets and Pods for revocation), as a narrow function so tests can hand in a map.
 */
import type { KubeObject } from '@svc-apiserver/api';

/** The core resources token validation reads. */
export type LookupResource = 'secrets' | 'serviceaccounts' | 'pods';

/** Reads one object; undefined when it does not exist. Rejects only on storage failure. */
export type ObjectGetter = (resource: LookupResource, namespace: string, name: string) => Promise<KubeObject | undefined>;

/** The value of a Secret's `data` key, decoded (undefined when absent). */
export function secretValue(secret: KubeObject, key: string): string | undefined {
  const data = (secret as { data?: Record<string, unknown> }).data;
  const v = data?.[key];
  return typeof v === 'string' ? Buffer.from(v, 'base64').toString('utf8') : undefined;
}

/** True for an object that is being deleted. */
export function isDeleting(object: KubeObject): boolean {
  return typeof object.metadata?.deletionTimestamp === 'string' && object.metadata.deletionTimestamp !== '';
}
