/**
 * Minimal valid objects of every resource the server serves in this release, per the 1.27 schemas and validation,
 * for CRUD tests. Groups come from the naming table so the same fixtures serve both flavours.
 */
import type { KubeObject, Names } from '@svc-apiserver/api';

/** One resource under test. */
export interface ResourceFixture {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
  /** A valid object named `name` (namespace filled in by the caller for namespaced kinds). */
  readonly make: (name: string, namespace: string) => KubeObject;
}

const podSpec = { containers: [{ name: 'c', image: 'registry.example/app:1' }] };

/** Every resource of the foundation release. */
export function resourceFixtures(names: Names): ResourceFixture[] {
  const core = (resource: string, kind: string, namespaced: boolean, body: (name: string, ns: string) => Record<string, unknown>): ResourceFixture => ({
    group: '', version: 'v1', resource, kind, namespaced,
    make: (name, ns) => ({ apiVersion: 'v1', kind, metadata: namespaced ? { name, namespace: ns } : { name }, ...body(name, ns) }),
  });
  const coordination = names.group('coordination');
  const events = names.group('events');
  return [
    core('namespaces', 'Namespace', false, () => ({})),
    core('configmaps', 'ConfigMap', true, () => ({ data: { key: 'value' } })),
    core('secrets', 'Secret', true, () => ({ type: 'Opaque', stringData: { user: 'admin' }, data: { pass: Buffer.from('s3cret').toString('base64') } })),
    core('serviceaccounts', 'ServiceAccount', true, () => ({})),
    core('pods', 'Pod', true, () => ({ spec: podSpec })),
    core('services', 'Service', true, () => ({ spec: { selector: { app: 'web' }, ports: [{ port: 80, protocol: 'TCP' }] } })),
    core('nodes', 'Node', false, () => ({ spec: {} })),
    core('events', 'Event', true, (_name, ns) => ({
      involvedObject: { kind: 'Pod', name: 'p', namespace: ns, apiVersion: 'v1' },
      reason: 'Tested', message: 'an event', type: 'Normal', source: { component: 'e2e' },
      firstTimestamp: '2024-01-01T00:00:00Z', lastTimestamp: '2024-01-01T00:00:00Z', count: 1,
    })),
    core('endpoints', 'Endpoints', true, () => ({ subsets: [{ addresses: [{ ip: '10.1.2.3' }], ports: [{ port: 8080, protocol: 'TCP' }] }] })),
    core('limitranges', 'LimitRange', true, () => ({ spec: { limits: [{ type: 'Container', max: { cpu: '2' }, min: { cpu: '100m' } }] } })),
    core('resourcequotas', 'ResourceQuota', true, () => ({ spec: { hard: { pods: '10' } } })),
    core('podtemplates', 'PodTemplate', true, () => ({ template: { metadata: { labels: { app: 'web' } }, spec: podSpec } })),
    core('replicationcontrollers', 'ReplicationController', true, () => ({
      spec: { replicas: 1, selector: { app: 'web' }, template: { metadata: { labels: { app: 'web' } }, spec: podSpec } },
    })),
    core('persistentvolumes', 'PersistentVolume', false, () => ({
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/srv/pv' } },
    })),
    core('persistentvolumeclaims', 'PersistentVolumeClaim', true, () => ({
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    })),
    {
      group: coordination, version: 'v1', resource: 'leases', kind: 'Lease', namespaced: true,
      make: (name, ns) => ({
        apiVersion: `${coordination}/v1`, kind: 'Lease', metadata: { name, namespace: ns },
        spec: { holderIdentity: 'holder-1', leaseDurationSeconds: 15 },
      }),
    },
    {
      group: events, version: 'v1', resource: 'events', kind: 'Event', namespaced: true,
      make: (name, ns) => ({
        apiVersion: `${events}/v1`, kind: 'Event', metadata: { name, namespace: ns },
        eventTime: '2024-01-01T00:00:00.000000Z', reportingController: 'example.com/e2e', reportingInstance: 'e2e-1',
        action: 'Test', reason: 'Tested', type: 'Normal', note: 'an event',
        regarding: { kind: 'Pod', name: 'p', namespace: ns, apiVersion: 'v1' },
      }),
    },
  ];
}
