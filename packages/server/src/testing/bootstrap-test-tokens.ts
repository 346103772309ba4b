/**
 * Bootstrap token Secrets for the bootstrap controllers' tests (document 2 §Bootstrap tokens), in the system
 * namespace of a flavour.
 */
import type { KubeObject, Names } from '@svc-apiserver/api';

/** A `bootstrap-token-<id>` Secret with the given data (plain strings, encoded here). */
export function bootstrapTokenSecret(names: Names, id: string, secret: string, data: Record<string, string> = {}): KubeObject {
  const encoded = Object.fromEntries(Object.entries({ 'token-id': id, 'token-secret': secret, ...data }).map(([k, v]) => [k, Buffer.from(v).toString('base64')]));
  return {
    apiVersion: 'v1', kind: 'Secret', type: names.domain('token', 'bootstrap'),
    metadata: { name: `bootstrap-token-${id}`, namespace: names.name('systemNamespace') }, data: encoded,
  };
}
