import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { namesFor } from '@svc-apiserver/api';
import { loadCatalog } from './load-catalog.js';

const { validator } = loadCatalog(namesFor('svc'));
const configMap = 'io.k8s.api.core.v1.ConfigMap';
const pod = 'io.k8s.api.core.v1.Pod';

function podWith(container: Record<string, unknown>, spec: Record<string, unknown> = {}): unknown {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i', ...container }], ...spec } };
}

describe('schema validator', () => {
  it('accepts a valid configmap with labels, annotations, data and binaryData', () => {
    const r = validator.validate(configMap, {
      apiVersion: 'v1', kind: 'ConfigMap',
      metadata: { name: 'x', namespace: 'default', labels: { a: 'b' }, annotations: { 'x/y': 'z' } },
      data: { k: 'v' }, binaryData: { b: 'aGVsbG8=' }, immutable: false,
    });
    assert.deepEqual(r, { errors: [], unknownFields: [] });
  });

  it('reports unknown top-level and metadata fields but nothing inside maps', () => {
    const r = validator.validate(configMap, {
      apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { anything: 'goes' }, bogus: 1 }, extra: true,
    });
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.unknownFields, ['metadata.bogus', 'extra']);
  });

  it('reports wrong types with the path and the Go decoder detail', () => {
    const r = validator.validate(configMap, { metadata: { name: 'x', labels: { a: 1 } }, data: 'nope' });
    assert.equal(r.errors.length, 2);
    assert.deepEqual(r.errors[0], {
      type: 'FieldValueTypeInvalid', field: 'metadata.labels[a]', badValue: 1,
      detail: 'json: cannot unmarshal number 1 into Go struct field ObjectMeta.metadata.labels of type string',
    });
    assert.equal(r.errors[1]?.field, 'data');
    assert.match(r.errors[1]?.detail ?? '', /cannot unmarshal string into Go struct field ConfigMap\.data of type map\[string\]string/);
  });

  it('rejects malformed base64 in binaryData', () => {
    const r = validator.validate(configMap, { binaryData: { b: 'not base64!' } });
    assert.equal(r.errors.length, 1);
    assert.equal(r.errors[0]?.field, 'binaryData[b]');
    assert.match(r.errors[0]?.detail ?? '', /illegal base64 data at input byte 3/);
  });

  it('accepts a pod with nested containers, ports, probes and resources', () => {
    const r = validator.validate(pod, podWith({
      ports: [{ containerPort: 80, protocol: 'TCP' }],
      readinessProbe: { httpGet: { port: 'http', path: '/' } },
      livenessProbe: { tcpSocket: { port: 8080 } },
      resources: { limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: 0.25, memory: 1e9 } },
      env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
    }, { restartPolicy: 'Always', volumes: [{ name: 'v', emptyDir: {} }] }));
    assert.deepEqual(r, { errors: [], unknownFields: [] });
  });

  it('reports unknown fields at depth in the strict decoder form', () => {
    const r = validator.validate(pod, podWith({ foo: 1, ports: [{ containerPort: 80 }, { containerPort: 81, bar: 'x' }] }, { baz: {} }));
    assert.deepEqual(r.errors, []);
    assert.deepEqual([...r.unknownFields].sort(), ['spec.baz', 'spec.containers[0].foo', 'spec.containers[0].ports[1].bar']);
  });

  it('reports wrong types inside containers', () => {
    const r = validator.validate(pod, podWith({ image: 5, ports: [{ containerPort: 'eighty' }], stdin: 'yes' }));
    const byField = Object.fromEntries(r.errors.map((e) => [e.field, e.detail]));
    assert.equal(byField['spec.containers[0].image'], 'json: cannot unmarshal number 5 into Go struct field Container.spec.containers.image of type string');
    assert.equal(byField['spec.containers[0].ports[0].containerPort'],
      'json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32');
    assert.match(byField['spec.containers[0].stdin'] ?? '', /of type bool$/);
    assert.equal(r.errors.length, 3);
  });

  it('rejects non-integers, int32 overflow and arrays given as objects', () => {
    const r = validator.validate(pod, podWith({ ports: [{ containerPort: 1.5 }, { containerPort: 2 ** 31 }] }, {
      activeDeadlineSeconds: 2 ** 40, terminationGracePeriodSeconds: 0.5, volumes: { name: 'v' },
    }));
    assert.deepEqual(r.errors.map((e) => e.field).sort(), [
      'spec.containers[0].ports[0].containerPort', 'spec.containers[0].ports[1].containerPort',
      'spec.terminationGracePeriodSeconds', 'spec.volumes',
    ]);
    assert.match(r.errors.find((e) => e.field === 'spec.volumes')?.detail ?? '', /cannot unmarshal object into .* of type \[\]v1\.Volume/);
  });

  it('accepts bigint integers in range and rejects those out of range', () => {
    assert.deepEqual(validator.validate(pod, podWith({}, { activeDeadlineSeconds: 2n ** 62n })).errors, []);
    assert.equal(validator.validate(pod, podWith({}, { activeDeadlineSeconds: 2n ** 64n })).errors.length, 1);
  });

  it("leaves the schemas' required fields to each kind's validation, as kube's decoder does", () => {
    assert.deepEqual(validator.validate(pod, { metadata: { name: 'p' }, spec: { containers: [{ image: 'i' }] } }).errors, []);
    assert.deepEqual(validator.validate(pod, { metadata: { name: 'p' }, spec: {} }).errors, []);
    const node = validator.validate('io.k8s.api.core.v1.Node', { metadata: { name: 'n' }, status: { nodeInfo: { kubeletVersion: 'v1.27.0' } } });
    assert.deepEqual(node.errors, []);
  });

  it('checks enums but leaves empty values to defaulting', async () => {
    // The 1.27 built-in schemas carry no `enum`; CRD-style schemas do.
    const { createSchemaValidator } = await import('./validator.js');
    const v = createSchemaValidator({ T: { type: 'object', properties: { policy: { type: 'string', enum: ['Always', 'Never'] } } } });
    assert.deepEqual(v.validate('T', { policy: '' }).errors, []);
    assert.deepEqual(v.validate('T', { policy: 'Never' }).errors, []);
    const r = v.validate('T', { policy: 'Sometimes' });
    assert.equal(r.errors.length, 1);
    assert.equal(r.errors[0]?.type, 'FieldValueNotSupported');
    assert.equal(r.errors[0]?.field, 'policy');
    assert.equal(r.errors[0]?.detail, 'supported values: "Always", "Never"');
  });

  it('accepts int-or-string as an int32 or a string, and rejects other types', () => {
    const ok = validator.validate(pod, podWith({ livenessProbe: { httpGet: { port: 'http' } }, readinessProbe: { httpGet: { port: 8080 } } }));
    assert.deepEqual(ok.errors, []);
    const bad = validator.validate(pod, podWith({ livenessProbe: { httpGet: { port: true } }, readinessProbe: { httpGet: { port: 1.5 } } }));
    assert.deepEqual(bad.errors.map((e) => e.field).sort(), ['spec.containers[0].livenessProbe.httpGet.port', 'spec.containers[0].readinessProbe.httpGet.port']);
  });

  it('accepts quantities as strings or numbers and rejects malformed ones', () => {
    const ok = validator.validate(pod, podWith({ resources: { limits: { cpu: '1.5', memory: '128Mi', x: '1e3', y: '+.5k', z: 2 } } }));
    assert.deepEqual(ok.errors, []);
    const bad = validator.validate(pod, podWith({ resources: { limits: { cpu: 'lots', memory: true } } }));
    assert.equal(bad.errors.length, 2);
    const cpu = bad.errors.find((e) => e.field === 'spec.containers[0].resources.limits[cpu]');
    assert.equal(cpu?.type, 'FieldValueInvalid');
    assert.match(cpu?.detail ?? '', /^quantities must match the regular expression/);
  });

  it('checks date-time strings as metav1.Time parses them: only null is the zero time', () => {
    const ok = validator.validate(configMap, { metadata: { creationTimestamp: '2024-01-02T03:04:05Z', deletionTimestamp: null } });
    assert.deepEqual(ok.errors, []);
    const bad = validator.validate(configMap, { metadata: { creationTimestamp: 'yesterday', deletionTimestamp: '' } });
    assert.deepEqual(bad.errors.map((e) => [e.field, e.detail]), [
      ['metadata.creationTimestamp', 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"'],
      ['metadata.deletionTimestamp', 'parsing time "" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "2006"'],
    ]);
  });

  it('checks MicroTime strings against RFC3339Micro (six fractional digits)', () => {
    const lease = 'io.k8s.api.coordination.v1.Lease';
    assert.deepEqual(validator.validate(lease, { spec: { renewTime: '2024-01-02T03:04:05.123456Z' } }).errors, []);
    const bad = validator.validate(lease, { spec: { renewTime: '2024-01-02T03:04:05Z' } });
    assert.equal(bad.errors[0]?.field, 'spec.renewTime');
    assert.equal(bad.errors[0]?.detail, 'parsing time "2024-01-02T03:04:05Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"');
  });

  it('fails a quantity given as any other JSON value with the quantity format error, as its UnmarshalJSON does', () => {
    const bad = validator.validate(pod, podWith({ resources: { limits: { memory: true, cpu: {} } } }));
    assert.deepEqual(bad.errors.map((e) => e.type), ['FieldValueInvalid', 'FieldValueInvalid']);
    assert.ok(bad.errors.every((e) => e.detail.startsWith('quantities must match the regular expression')));
  });

  it('treats opaque objects (RawExtension, FieldsV1) as free-form and accepts null anywhere', () => {
    const r = validator.validate('io.k8s.api.apps.v1.ControllerRevision', {
      metadata: { managedFields: [{ manager: 'm', fieldsV1: { 'f:data': { '.': {} } } }] }, data: { any: { thing: [1] } }, revision: 1,
    });
    assert.deepEqual(r, { errors: [], unknownFields: [] });
    assert.deepEqual(validator.validate(pod, podWith({ ports: null }, { volumes: null })).errors, []);
  });

  it('honours x-kubernetes-preserve-unknown-fields and embedded resources', async () => {
    const { createSchemaValidator } = await import('./validator.js');
    const v = createSchemaValidator({
      T: {
        type: 'object',
        properties: {
          free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { n: { type: 'integer' } } },
          obj: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: {} } } },
        },
      },
    });
    const r = v.validate('T', { free: { n: 'x', other: 1 }, obj: { apiVersion: 'v1', kind: 'K', metadata: {}, spec: { q: 1 }, zz: 1 } });
    assert.deepEqual(r.errors.map((e) => e.field), ['free.n']);
    assert.deepEqual(r.unknownFields, ['obj.spec.q', 'obj.zz']);
  });

  it('validates recursive schemas (CustomResourceDefinition JSONSchemaProps)', () => {
    const r = validator.validate('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition', {
      spec: {
        group: 'g', names: { plural: 'ps', kind: 'P' }, scope: 'Namespaced',
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { a: { type: 'string', bogus: 1 } } } } }],
      },
    });
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.unknownFields, ['spec.versions[0].schema.openAPIV3Schema.properties[a].bogus']);
  });

  it('reports an unknown schema name as an internal error', () => {
    assert.equal(validator.validate('no.such.Schema', {}).errors[0]?.type, 'InternalError');
  });
});
