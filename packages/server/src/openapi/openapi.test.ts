import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { namesFor } from '@svc-apiserver/api';
import { loadCatalog } from '../schema/load-catalog.js';
import type { ServedResource } from './served.js';
import { openapiV3Document, openapiV3Index } from './v3.js';
import { openapiV2Document, type SwaggerDocument } from './v2.js';
import { gnosticDocumentType, openapiV2Protobuf } from './v2-protobuf.js';

const svc = loadCatalog(namesFor('svc'));
const k8s = loadCatalog(namesFor('k8s'));

const served: ServedResource[] = [
  ...['namespaces', 'namespaces/status', 'namespaces/finalize', 'configmaps', 'pods', 'pods/status', 'secrets']
    .map((resource) => ({ groupKey: '', version: 'v1', resource })),
  { groupKey: 'coordination', version: 'v1', resource: 'leases' },
];

type Json = Record<string, any>;

describe('OpenAPI v3', () => {
  it('indexes the served group-versions with their content hash, in the flavour', () => {
    const index = openapiV3Index(svc, served).document;
    assert.deepEqual(Object.keys(index.paths), ['api/v1', 'apis/coordination.svc.io/v1']);
    const core = openapiV3Document(svc, 'api/v1', served);
    assert.ok(core);
    const expected = createHash('sha512').update(core.json).digest('hex').toUpperCase();
    assert.equal(index.paths['api/v1']?.serverRelativeURL, `/openapi/v3/api/v1?hash=${expected}`);
    assert.deepEqual(Object.keys(openapiV3Index(k8s, served).document.paths), ['api/v1', 'apis/coordination.k8s.io/v1']);
  });

  it('restricts a group-version document to the served resources and the schemas they reach', () => {
    const doc = openapiV3Document(svc, 'api/v1', served)?.document;
    assert.ok(doc);
    const paths = Object.keys(doc.paths);
    assert.ok(paths.includes('/api/v1/'));
    assert.ok(paths.includes('/api/v1/namespaces/{namespace}/configmaps/{name}'));
    assert.ok(paths.includes('/api/v1/watch/namespaces/{namespace}/configmaps'));
    assert.ok(paths.includes('/api/v1/namespaces/{namespace}/pods/{name}/status'));
    assert.ok(paths.includes('/api/v1/namespaces/{name}/finalize'));
    assert.ok(!paths.includes('/api/v1/namespaces/{namespace}/pods/{name}/exec'), 'unlisted subresource');
    assert.ok(!paths.some((p) => p.includes('/services')), 'unserved resource');
    assert.ok(doc.components.schemas['io.k8s.api.core.v1.ConfigMap']);
    assert.ok(doc.components.schemas['io.k8s.api.core.v1.Container'], 'reached through Pod');
    assert.ok(!doc.components.schemas['io.k8s.api.core.v1.Service'], 'not reachable from served paths');
  });

  it('renames groups in paths, group-version-kinds and the protobuf media type', () => {
    const doc = openapiV3Document(svc, 'apis/coordination.svc.io/v1', served)?.document;
    assert.ok(doc);
    const item = doc.paths['/apis/coordination.svc.io/v1/namespaces/{namespace}/leases/{name}'] as Json;
    assert.deepEqual(item['get']['x-kubernetes-group-version-kind'], { group: 'coordination.svc.io', kind: 'Lease', version: 'v1' });
    assert.ok('application/vnd.svc.protobuf' in item['get']['responses']['200']['content']);
    assert.deepEqual((doc.components.schemas['io.k8s.api.coordination.v1.Lease'] as Json)['x-kubernetes-group-version-kind'],
      [{ group: 'coordination.svc.io', kind: 'Lease', version: 'v1' }]);
    assert.ok(!JSON.stringify(doc.paths).includes('coordination.k8s.io'));
    assert.equal(openapiV3Document(k8s, 'apis/coordination.svc.io/v1', served), undefined);
    assert.ok(openapiV3Document(k8s, 'apis/coordination.k8s.io/v1', served));
  });

  it('answers undefined for unserved group-versions and caches per served set', () => {
    assert.equal(openapiV3Document(svc, 'apis/apps/v1', served), undefined);
    assert.equal(openapiV3Document(svc, 'apis/nope/v1', served), undefined);
    assert.equal(openapiV3Document(svc, 'api/v1', served), openapiV3Document(svc, 'api/v1', [...served].reverse()));
  });
});

describe('OpenAPI v2', () => {
  const v2 = openapiV2Document(svc, served).document;

  it('has the ConfigMap definition in v2 form', () => {
    const cm = v2.definitions['io.k8s.api.core.v1.ConfigMap'] as Json;
    assert.equal(cm['type'], 'object');
    assert.deepEqual(Object.keys(cm['properties']).sort(), ['apiVersion', 'binaryData', 'data', 'immutable', 'kind', 'metadata']);
    assert.deepEqual(cm['properties']['data']['additionalProperties'], { type: 'string' }, 'default dropped');
    assert.equal(cm['properties']['metadata']['$ref'], '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    assert.equal(cm['properties']['metadata']['allOf'], undefined);
    assert.deepEqual(cm['x-kubernetes-group-version-kind'], [{ group: '', kind: 'ConfigMap', version: 'v1' }]);
  });

  it('turns IntOrString and Quantity into strings and adds the discovery-only definitions and paths', () => {
    const ios = v2.definitions['io.k8s.apimachinery.pkg.util.intstr.IntOrString'] as Json;
    assert.equal(ios['type'], 'string');
    assert.equal(ios['format'], 'int-or-string');
    assert.equal(ios['oneOf'], undefined);
    assert.equal((v2.definitions['io.k8s.apimachinery.pkg.api.resource.Quantity'] as Json)['type'], 'string');
    for (const n of ['APIGroup', 'APIGroupList', 'APIVersions', 'GroupVersionForDiscovery', 'ServerAddressByClientCIDR']) {
      assert.ok(v2.definitions[`io.k8s.apimachinery.pkg.apis.meta.v1.${n}`], n);
    }
    assert.ok(v2.definitions['io.k8s.apimachinery.pkg.version.Info']);
    const group = v2.paths['/apis/coordination.svc.io/']?.['get'] as Json;
    assert.equal(group['operationId'], 'getCoordinationAPIGroup');
    assert.deepEqual(group['tags'], ['coordination']);
    assert.deepEqual(group['produces'], ['application/json', 'application/yaml', 'application/vnd.svc.protobuf']);
    assert.ok(v2.paths['/api/'] && v2.paths['/apis/'] && v2.paths['/version/']);
  });

  it('matches the layout of the reference Kubernetes v2 document for a definition', () => {
    // io.k8s.api.coordination.v1.LeaseSpec in kube-apiserver's swagger.json, descriptions left out.
    const expected = {
      properties: {
        acquireTime: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime' },
        holderIdentity: { type: 'string' },
        leaseDurationSeconds: { format: 'int32', type: 'integer' },
        leaseTransitions: { format: 'int32', type: 'integer' },
        renewTime: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime' },
      },
      type: 'object',
    };
    assert.deepEqual(withoutDescriptions(v2.definitions['io.k8s.api.coordination.v1.LeaseSpec']), expected);
  });

  it('matches the layout of the reference Kubernetes v2 document for an operation', () => {
    const patch = v2.paths['/apis/coordination.svc.io/v1/namespaces/{namespace}/leases/{name}']?.['patch'] as Json;
    assert.deepEqual(patch['consumes'], ['application/json-patch+json', 'application/merge-patch+json',
      'application/strategic-merge-patch+json', 'application/apply-patch+yaml']);
    assert.deepEqual(patch['produces'], ['application/json', 'application/yaml', 'application/vnd.svc.protobuf']);
    assert.deepEqual(patch['parameters'][0], { in: 'body', name: 'body', required: true, schema: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' } });
    const fv = (patch['parameters'] as Json[]).find((p) => p['name'] === 'fieldValidation');
    assert.deepEqual(withoutDescriptions(fv), { in: 'query', name: 'fieldValidation', type: 'string', uniqueItems: true });
    assert.deepEqual(patch['responses']['201'], { description: 'Created', schema: { $ref: '#/definitions/io.k8s.api.coordination.v1.Lease' } });
    assert.deepEqual(patch['schemes'], ['https']);
    assert.equal(patch['x-kubernetes-action'], 'patch');
    const del = v2.paths['/api/v1/namespaces/{namespace}/configmaps/{name}']?.['delete'] as Json;
    assert.deepEqual(del['parameters'][0], { in: 'body', name: 'body', schema: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions' } });
    assert.deepEqual(del['consumes'], ['*/*']);
    const list = v2.paths['/api/v1/namespaces/{namespace}/configmaps']?.['get'] as Json;
    assert.deepEqual(list['produces'], ['application/json', 'application/yaml', 'application/vnd.svc.protobuf',
      'application/json;stream=watch', 'application/vnd.svc.protobuf;stream=watch']);
  });

  it('has no v3 constructs left', () => {
    const json = openapiV2Document(svc, served).json;
    assert.ok(!json.includes('#/components/schemas/'));
    assert.ok(!json.includes('"allOf"'));
    assert.ok(!json.includes('"requestBody"'));
    assert.ok(!json.includes('"default"'));
  });
});

describe('OpenAPI v2 protobuf', () => {
  const v2: SwaggerDocument = openapiV2Document(svc, served).document;
  const bytes = openapiV2Protobuf(v2);
  const decoded = gnosticDocumentType().toObject(gnosticDocumentType().decode(bytes), { defaults: false }) as Json;

  it('round-trips as a gnostic openapi.v2.Document', () => {
    assert.equal(decoded['swagger'], '2.0');
    assert.equal(decoded['paths']['path'].length, Object.keys(v2.paths).length);
    assert.equal(decoded['definitions']['additional_properties'].length, Object.keys(v2.definitions).length);
    assert.equal(openapiV2Protobuf(v2), bytes, 'cached per document');
  });

  it('encodes schemas with gnostic types (TypeItem, NamedSchema, AdditionalPropertiesItem, _ref)', () => {
    const cm = named(decoded['definitions']['additional_properties'], 'io.k8s.api.core.v1.ConfigMap');
    assert.deepEqual(cm['type'], { value: ['object'] });
    const props = cm['properties']['additional_properties'] as Json[];
    assert.deepEqual(named(props, 'data')['additional_properties'], { schema: { type: { value: ['string'] } } });
    assert.equal(named(props, 'metadata')['_ref'], '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    const pod = named(decoded['definitions']['additional_properties'], 'io.k8s.api.core.v1.PodSpec');
    const containers = named(pod['properties']['additional_properties'], 'containers');
    assert.deepEqual(containers['items'], { schema: [{ _ref: '#/definitions/io.k8s.api.core.v1.Container' }] });
    const ext = containers['vendor_extension'] as Json[];
    assert.equal(named(ext, 'x-kubernetes-patch-merge-key')['yaml'], 'name\n');
  });

  it('encodes vendor extensions as YAML in Any and parameters as oneofs', () => {
    const lease = named(decoded['definitions']['additional_properties'], 'io.k8s.api.coordination.v1.Lease');
    const gvk = named(lease['vendor_extension'], 'x-kubernetes-group-version-kind');
    assert.deepEqual(parse(gvk['yaml']), [{ group: 'coordination.svc.io', kind: 'Lease', version: 'v1' }]);
    const item = named(decoded['paths']['path'], '/apis/coordination.svc.io/v1/namespaces/{namespace}/leases/{name}');
    const patch = item['patch'] as Json;
    assert.equal(patch['operation_id'], 'patchCoordinationV1NamespacedLease');
    const params = patch['parameters'] as Json[];
    assert.equal(params[0]?.['parameter']['body_parameter']['schema']['_ref'], '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch');
    assert.ok(params.some((p) => p['parameter']?.['non_body_parameter']?.['query_parameter_sub_schema']?.['name'] === 'fieldValidation'));
    assert.equal(parse(named(patch['vendor_extension'], 'x-kubernetes-action')['yaml']), 'patch');
    assert.equal(item['parameters'][0]['parameter']['non_body_parameter']['path_parameter_sub_schema']['name'], 'name');
    const ok = named(patch['responses']['response_code'], '200');
    assert.equal(ok['response']['schema']['schema']['_ref'], '#/definitions/io.k8s.api.coordination.v1.Lease');
    assert.deepEqual(decoded['security_definitions']['additional_properties'][0]['value']['api_key_security']['name'], 'authorization');
  });
});

/** The value of a gnostic `Named*` list entry. */
function named(list: Json[], name: string): Json {
  const hit = list.find((e) => e['name'] === name);
  assert.ok(hit, `no ${name}`);
  return hit['value'] as Json;
}

function withoutDescriptions(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutDescriptions);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'description').map(([k, x]) => [k, withoutDescriptions(x)]));
}

describe('published enums', () => {
  const apps: ServedResource[] = [{ groupKey: 'apps', version: 'v1', resource: 'deployments' }, { groupKey: '', version: 'v1', resource: 'pods' }];

  it('carries enum and "Possible enum values" as kube-apiserver 1.27 publishes them, in v3 and v2', () => {
    const doc = openapiV3Document(svc, 'apis/apps/v1', apps)?.document;
    assert.ok(doc);
    const type = (doc.components.schemas['io.k8s.api.apps.v1.DeploymentStrategy'] as Json).properties.type;
    assert.deepEqual(type.enum, ['Recreate', 'RollingUpdate']);
    assert.equal(type.description, 'Type of deployment. Can be "Recreate" or "RollingUpdate". Default is RollingUpdate.\n\nPossible enum values:\n'
      + ' - `"Recreate"` Kill all existing pods before creating new ones.\n'
      + ' - `"RollingUpdate"` Replace the old ReplicaSets by new one using rolling update i.e gradually scale down the old ReplicaSets and scale up the new one.');
    const core = openapiV3Document(svc, 'api/v1', apps)?.document;
    const container = (core?.components.schemas['io.k8s.api.core.v1.Container'] as Json).properties;
    assert.deepEqual(container.imagePullPolicy.enum, ['Always', 'IfNotPresent', 'Never']);
    assert.deepEqual(container.terminationMessagePolicy.enum, ['FallbackToLogsOnError', 'File']);
    const port = (core?.components.schemas['io.k8s.api.core.v1.ContainerPort'] as Json).properties.protocol;
    assert.deepEqual(port.enum, ['SCTP', 'TCP', 'UDP']);
    assert.equal(port.default, 'TCP');
    const v2 = openapiV2Document(svc, apps).document;
    assert.deepEqual((v2.definitions['io.k8s.api.apps.v1.DeploymentStrategy'] as Json).properties.type.enum, ['Recreate', 'RollingUpdate']);
  });
});
