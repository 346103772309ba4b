/**
 * The strategies follow the server's `--feature-gates`, as kube-apiserver's do: a server started with 1.27's default
 * gates flipped keeps the fields of the gates turned on (and validates them), drops those of the gates turned off
 * unless the stored object used them, and validates with the limits of the gates' state. One case per gate family:
 * pod spec fields, pod validation options, claims, and the apps and batch kinds' own gates. (The default state of
 * each gate is the parity corpus's.)
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor } from '@svc-apiserver/api';
import { call, createNamespace } from '../http.js';
import { startServerProcess, type ServerProcess } from '../server-process.js';

const names = namesFor('svc');
const ns = 'gates';
const gates = [
  'InPlacePodVerticalScaling=true', 'DynamicResourceAllocation=true', 'PodSchedulingReadiness=false', 'MinDomainsInPodTopologySpread=false',
  'ProbeTerminationGracePeriod=false', 'ExpandedDNSConfig=false', 'PodDeletionCost=false', 'AnyVolumeDataSource=false',
  'RetroactiveDefaultStorageClass=false', 'JobPodFailurePolicy=false', 'ElasticIndexedJob=false', 'StatefulSetAutoDeletePVC=false',
  'MaxUnavailableStatefulSet=true',
].join(',');
const container = { name: 'app', image: 'nginx:1.25' };
const labels = { app: 'g' };

let server: ServerProcess;

const pods = `/api/v1/namespaces/${ns}/pods`;
const apps = (resource: string) => `/apis/apps/v1/namespaces/${ns}/${resource}`;
const jobs = `/apis/${names.group('batch')}/v1/namespaces/${ns}/jobs`;
const claims = `/api/v1/namespaces/${ns}/persistentvolumeclaims`;
const causes = (body: any): string[] => (body?.details?.causes ?? []).map((c: { field: string }) => c.field).sort();

describe('strategies follow --feature-gates', () => {
  before(async () => {
    server = await startServerProcess({ storage: 'memory', extraArgs: [`--feature-gates=${gates}`] });
    await createNamespace(server.client, ns);
  });
  after(async () => {
    await server?.stop();
  });

  test('pod fields of gates turned on are kept and validated, of gates turned off dropped', async () => {
    const pod = {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'fields' },
      spec: {
        resourceClaims: [{ name: 'gpu', source: { resourceClaimName: 'gpu-claim' } }],
        schedulingGates: [{ name: 'example.com/wait' }],
        topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', minDomains: 2, labelSelector: { matchLabels: labels } }],
        containers: [{
          ...container, resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }], resources: { claims: [{ name: 'gpu' }] },
          livenessProbe: { exec: { command: ['true'] }, terminationGracePeriodSeconds: 5 },
        }],
      },
    };
    const res = await call(server.client, 'POST', pods, pod);
    assert.equal(res.status, 201, res.text);
    const spec = res.body.spec;
    assert.deepEqual(spec.containers[0].resizePolicy, [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }]);
    assert.deepEqual(spec.resourceClaims, [{ name: 'gpu', source: { resourceClaimName: 'gpu-claim' } }]);
    assert.deepEqual(spec.containers[0].resources.claims, [{ name: 'gpu' }]);
    assert.equal(spec.schedulingGates, undefined);
    assert.equal(spec.topologySpreadConstraints[0].minDomains, undefined);
    assert.equal(spec.containers[0].livenessProbe.terminationGracePeriodSeconds, undefined);

    const bad = await call(server.client, 'POST', pods, {
      ...pod, metadata: { name: 'bad-fields' },
      spec: { ...pod.spec, containers: [{ ...container, resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'Sometimes' }], resources: { claims: [{ name: 'other' }] } }] },
    });
    assert.equal(bad.status, 422, bad.text);
    assert.deepEqual(causes(bad.body), ['spec.containers[0].resizePolicy', 'spec.containers[0].resources.claims[0]']);
  });

  test('pod validation options follow the gates: the unexpanded DNS limits, any deletion cost', async () => {
    const searches = ['a.example', 'b.example', 'c.example', 'd.example', 'e.example', 'f.example', 'g.example'];
    const dns = await call(server.client, 'POST', pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'dns' }, spec: { containers: [container], dnsConfig: { searches } } });
    assert.equal(dns.status, 422, dns.text);
    assert.deepEqual(causes(dns.body), ['spec.dnsConfig.searches']);
    assert.match(dns.text, /must not have more than 6 search paths/);
    const cost = await call(server.client, 'POST', pods, {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'cost', annotations: { [names.domain('pod-deletion-cost', 'controller')]: 'cheap' } }, spec: { containers: [container] },
    });
    assert.equal(cost.status, 201, cost.text);
  });

  test('claims: no data source mirroring or other kinds without AnyVolumeDataSource, no class set later without RetroactiveDefaultStorageClass', async () => {
    const spec = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } };
    const mirrored = await call(server.client, 'POST', claims, {
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'from-claim' }, spec: { ...spec, dataSource: { kind: 'PersistentVolumeClaim', name: 'src' } },
    });
    assert.equal(mirrored.status, 201, mirrored.text);
    assert.equal(mirrored.body.spec.dataSourceRef, undefined);
    assert.equal(mirrored.body.spec.dataSource.name, 'src');
    const other = await call(server.client, 'POST', claims, {
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'from-other' },
      spec: { ...spec, dataSource: { apiGroup: 'example.com', kind: 'Thing', name: 'x' }, dataSourceRef: { apiGroup: 'example.com', kind: 'Thing', name: 'x' } },
    });
    assert.equal(other.status, 201, other.text);
    assert.equal(other.body.spec.dataSource, undefined);
    assert.equal(other.body.spec.dataSourceRef, undefined);
    const classless = await call(server.client, 'POST', claims, { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'classless' }, spec });
    assert.equal(classless.status, 201, classless.text);
    const later = await call(server.client, 'PUT', `${claims}/classless`, { ...classless.body, spec: { ...classless.body.spec, storageClassName: 'fast' } });
    assert.equal(later.status, 422, later.text);
    assert.deepEqual(causes(later.body), ['spec']);
  });

  test('workload gates: pod failure policy dropped, Indexed completions immutable, claim retention not defaulted, maxUnavailable kept', async () => {
    const template = { metadata: { labels }, spec: { containers: [container], restartPolicy: 'Never' } };
    const job = await call(server.client, 'POST', jobs, {
      apiVersion: `${names.group('batch')}/v1`, kind: 'Job', metadata: { name: 'indexed' },
      spec: { completionMode: 'Indexed', completions: 2, parallelism: 2, template, podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }] } },
    });
    assert.equal(job.status, 201, job.text);
    assert.equal(job.body.spec.podFailurePolicy, undefined);
    const elastic = await call(server.client, 'PUT', `${jobs}/indexed`, { ...job.body, spec: { ...job.body.spec, completions: 3, parallelism: 3 } });
    assert.equal(elastic.status, 422, elastic.text);
    assert.deepEqual(causes(elastic.body), ['spec.completions']);
    assert.match(elastic.text, /field is immutable/);

    const sts = await call(server.client, 'POST', apps('statefulsets'), {
      apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: labels }, serviceName: 'web', template: { ...template, spec: { containers: [container] } },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } },
      },
    });
    assert.equal(sts.status, 201, sts.text);
    assert.equal(sts.body.spec.persistentVolumeClaimRetentionPolicy, undefined);
    assert.equal(sts.body.spec.updateStrategy.rollingUpdate.maxUnavailable, 2);
  });
});
