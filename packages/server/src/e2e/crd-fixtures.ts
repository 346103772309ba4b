/**
 * CustomResourceDefinitions the end-to-end tests share, and a helper that creates one and waits until it is
 * Established.
 */
import assert from 'node:assert/strict';
import { namesFor, type Names } from '@svc-apiserver/api';
import { call, eventually } from './http.js';
import type { ServerProcess } from './server-process.js';

/** The CronTab CRD of kube's documentation, with status, scale, columns, defaults and a map list. */
export function cronTabCrd(g = 'stable.example.com', extra: Record<string, unknown> = {}, names: Names = namesFor('svc')): Record<string, unknown> {
  const ext = names.group('apiextensions');
  return {
    apiVersion: `${ext}/v1`, kind: 'CustomResourceDefinition', metadata: { name: `crontabs.${g}` },
    spec: {
      group: g, scope: 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'], categories: ['all'] },
      versions: [{
        name: 'v1', served: true, storage: true,
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' } },
        additionalPrinterColumns: [
          { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' },
          { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                required: ['cronSpec'],
                properties: {
                  cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$', description: 'The cron schedule.' },
                  image: { type: 'string', default: 'busybox', maxLength: 40 },
                  replicas: { type: 'integer', minimum: 0, maximum: 10, default: 1 },
                  mode: { type: 'string', enum: ['fast', 'slow'], nullable: true },
                  ports: {
                    type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
                    items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } },
                  },
                  extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                },
              },
              status: { type: 'object', properties: { replicas: { type: 'integer' }, labelSelector: { type: 'string' } } },
            },
          },
        },
      }],
      ...extra,
    },
  };
}

/** Creates a CRD and waits until it is Established; answers how long that took. */
export async function establish(s: ServerProcess, crd: Record<string, unknown>, names: Names = namesFor('svc')): Promise<number> {
  const started = Date.now();
  const r = await call(s.client, 'POST', `/apis/${names.group('apiextensions')}/v1/customresourcedefinitions`, crd);
  assert.equal(r.status, 201, r.text);
  const name = (crd['metadata'] as { name: string }).name;
  const ok = await eventually(async () => {
    const got = await call(s.client, 'GET', `/apis/${names.group('apiextensions')}/v1/customresourcedefinitions/${name}`);
    return (got.body?.status?.conditions ?? []).some((c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True');
  }, 10_000, 20);
  assert.ok(ok, `${name} established`);
  return Date.now() - started;
}

