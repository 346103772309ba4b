/** Objects the plugin tests create (test support). */
import type { KubeObject } from '@svc-apiserver/api';

type Json = Record<string, unknown>;

/** A pod named `name` with one container `c` (image `app:1`), `spec` merged over it. */
export function testPod(name: string, spec: Json = {}, metadata: Json = {}): KubeObject {
  return {
    apiVersion: 'v1', kind: 'Pod', metadata: { name, ...metadata },
    spec: { containers: [{ name: 'c', image: 'registry.example/app:1' }], ...spec },
  };
}

/** A claim of `storage` named `name`. */
export function testClaim(name: string, spec: Json = {}, storage = '1Gi'): KubeObject {
  return {
    apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } }, ...spec },
  };
}

/** The spec of an answer body. */
export const specOfBody = (body: unknown): Json => ((body as Json | undefined)?.['spec'] ?? {}) as Json;
