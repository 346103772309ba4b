/**
 * The configmap the list-watch benchmark stores and the raw baseline serves: the same shape on both sides
 * (metadata with uid, timestamps and managed fields, ~100 bytes of data), about 500 bytes of JSON.
 */

/** A configmap as a client reads it (with resourceVersion). */
export function benchConfigMap(name: string, namespace: string, resourceVersion: number): Record<string, unknown> {
  return {
    kind: 'ConfigMap', apiVersion: 'v1',
    metadata: {
      name, namespace, uid: '6f1c7a52-3d1e-4b8a-9d57-0c3f7e2b9a10', resourceVersion: String(resourceVersion),
      creationTimestamp: '2024-01-01T00:00:00Z',
      managedFields: [{ manager: 'bench', operation: 'Update', apiVersion: 'v1', time: '2024-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:k': {} } } }],
    },
    data: { k: 'v'.repeat(64) },
  };
}
