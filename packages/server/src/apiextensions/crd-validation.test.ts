import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorMessage } from '@svc-apiserver/api';
import { defaultCrd, validateCrd, validateCrdStatus, validateCrdUpdate } from './crd-validation.js';
import type { CustomResourceDefinition } from './crd.js';
import { calculateNames } from '../controllers/apiextensions/crd-naming.js';

const schema = { openAPIV3Schema: { type: 'object' } };
function crd(spec: Record<string, unknown>, status: Record<string, unknown> = { storedVersions: ['v1'] }): CustomResourceDefinition {
  const made = {
    metadata: { name: 'widgets.example.com' },
    spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' }, versions: [{ name: 'v1', served: true, storage: true, schema }], ...spec },
    status,
  } as CustomResourceDefinition;
  defaultCrd(made);
  return made;
}
const messages = (c: CustomResourceDefinition) => validateCrd(c).map(fieldErrorMessage);

test('defaults: singular, listKind, the None conversion and a webhook service port', () => {
  const c = crd({ conversion: { strategy: 'Webhook', webhook: { clientConfig: { service: { namespace: 'n', name: 's' } }, conversionReviewVersions: ['v1'] } } });
  assert.equal(c.spec?.names?.singular, 'widget');
  assert.equal(c.spec?.names?.listKind, 'WidgetList');
  assert.equal(c.spec?.conversion?.webhook?.clientConfig?.service?.port, 443);
  assert.deepEqual(crd({}).spec?.conversion, { strategy: 'None' });
  assert.deepEqual(messages(c), []);
});

test('names, versions, columns, scale and conversion with kube messages', () => {
  assert.deepEqual(messages(crd({ names: { plural: 'Widgets', kind: 'Widget', listKind: 'Widget', shortNames: ['w_1'], categories: ['All'] } })), [
    'metadata.name: Invalid value: "widgets.example.com": must be spec.names.plural+"."+spec.group',
    "spec.names.plural: Invalid value: \"Widgets\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    "spec.names.shortNames[0]: Invalid value: \"w_1\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    'spec.names.listKind: Invalid value: "Widget": kind and listKind may not be the same',
    "spec.names.categories[0]: Invalid value: \"All\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
  ]);
  assert.deepEqual(messages(crd({ versions: [] }, { storedVersions: [] })), [
    'spec.versions: Invalid value: "[]apiextensions.CustomResourceDefinitionVersion(nil)": must have exactly one version marked as storage version',
    'status.storedVersions: Invalid value: []: must have at least one stored version',
  ]);
  assert.deepEqual(messages(crd({ versions: [
    { name: 'v1', served: true, storage: true, schema, additionalPrinterColumns: [{ name: 'A', type: 'float', jsonPath: 'spec' , priority: -1 }], subresources: { scale: { specReplicasPath: '.metadata.x', statusReplicasPath: '.status.r' } } },
    { name: 'V2', served: true, storage: true },
  ] })), [
    'spec.versions[0].subresources.scale.specReplicasPath: Invalid value: ".metadata.x": should be a json path under .spec',
    'spec.versions[0].additionalPrinterColumns[0].type: Invalid value: "float": must be one of boolean,date,integer,number,string',
    'spec.versions[0].additionalPrinterColumns[0].JSONPath: Invalid value: "spec": must be a simple json path starting with .',
    "spec.versions[1].name: Invalid value: \"V2\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    'spec.versions[1].schema.openAPIV3Schema: Required value: schemas are required',
    'spec.versions: Invalid value: ["v1","V2"]: must have exactly one version marked as storage version',
  ]);
  assert.deepEqual(messages(crd({ conversion: { strategy: 'Webhook', webhook: { clientConfig: { url: 'http://x/convert?q=1' }, conversionReviewVersions: ['v2'] } } })), [
    'spec.conversion.webhookClientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
    'spec.conversion.webhookClientConfig.url: Invalid value: "q=1": query parameters are not permitted in the URL',
    'spec.conversion.conversionReviewVersions: Invalid value: ["v2"]: must include at least one of v1, v1beta1',
  ]);
  // Kube validates the internal type: a webhook strategy without a webhook lacks its client config and review
  // versions; the None strategy may carry neither; a deprecation warning only on deprecated versions, printable.
  assert.deepEqual(messages(crd({ conversion: { strategy: 'Webhook' } })), [
    'spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook',
    'spec.conversion.conversionReviewVersions: Required value',
  ]);
  assert.deepEqual(messages(crd({ conversion: { strategy: 'None', webhook: { clientConfig: { url: 'https://x/c' }, conversionReviewVersions: ['v1', 'v1'] } } })), [
    'spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook',
    'spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook',
  ]);
  assert.deepEqual(messages(crd({ conversion: { strategy: 'Webhook', webhook: { clientConfig: { service: { name: 's', namespace: 'n' } }, conversionReviewVersions: ['v1', 'v1', 'V3'] } } })), [
    'spec.conversion.conversionReviewVersions[1]: Invalid value: "v1": duplicate version',
    "spec.conversion.conversionReviewVersions[2]: Invalid value: \"V3\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
  ]);
  assert.deepEqual(messages(crd({ versions: [
    { name: 'v1', served: true, storage: true, schema, deprecationWarning: 'w' },
    { name: 'v2', served: true, storage: false, schema, deprecated: true, deprecationWarning: 'a\tb' },
    { name: 'v3', served: true, storage: false, schema, deprecated: true, deprecationWarning: '' },
  ] })), [
    'spec.versions[0].deprecationWarning: Invalid value: "w": can only be set for deprecated versions',
    'spec.versions[1].deprecationWarning: Invalid value: "a\\tb": must only contain printable UTF-8 characters; control character found at index 1',
    'spec.versions[2].deprecationWarning: Invalid value: "": must not be an empty string',
  ]);
});

test('with the status subresource, the schema root is an object with only the allowed fields (the first other one reported)', () => {
  const version = (root: Record<string, unknown>) => crd({ versions: [{ name: 'v1', served: true, storage: true, subresources: { status: {} }, schema: { openAPIV3Schema: root } }] });
  assert.deepEqual(messages(version({ type: 'object', description: 'd', nullable: false, properties: { status: { type: 'object' } } })), []);
  const fields = messages(version({ type: 'object', maxProperties: 3, anyOf: [{ required: ['spec'] }], properties: { spec: { type: 'object' } } }));
  assert.equal(fields.length, 1);
  assert.match(fields[0]!, /^spec\.versions\[0\]\.schema\.openAPIV3Schema: Invalid value: .*: only \[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations\] fields are allowed at the root of the schema if the status subresource is enabled$/);
  assert.deepEqual(messages(version({ type: 'array', items: { type: 'string' } })), [
    'spec.versions[0].schema.openAPIV3Schema.type: Invalid value: "array": only "object" is allowed as the type at the root of the schema if the status subresource is enabled',
    'spec.versions[0].schema.openAPIV3Schema.type: Invalid value: "array": must be object at the root',
  ]);
});

test('updates: group and plural are immutable, the scope and kind once established; stored versions stay in the spec', () => {
  const old = crd({}, { storedVersions: ['v1'], conditions: [{ type: 'Established', status: 'True' }] });
  const changed = crd({ scope: 'Cluster', names: { plural: 'widgets', kind: 'Gadget' }, versions: [{ name: 'v2', served: true, storage: true, schema }] });
  assert.deepEqual(validateCrdUpdate(changed, old).map(fieldErrorMessage), [
    'status.storedVersions[0]: Invalid value: "v1": must appear in spec.versions',
    'status.storedVersions: Invalid value: ["v1"]: must have the storage version v2',
    'spec.scope: Invalid value: "Cluster": field is immutable',
    'spec.names.kind: Invalid value: "Gadget": field is immutable',
  ]);
  // A conversion webhook stored without a review version this server understands may keep lacking one on update
  // (kube's requireRecognizedConversionReviewVersion follows the old object); one that had one may not lose it.
  const webhook = (versions: string[]) => crd({ conversion: { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://x/c' }, conversionReviewVersions: versions } } });
  assert.deepEqual(validateCrdUpdate(webhook(['v3']), webhook(['v2'])).map(fieldErrorMessage), []);
  assert.deepEqual(validateCrdUpdate(webhook(['v3']), webhook(['v1'])).map(fieldErrorMessage), [
    'spec.conversion.conversionReviewVersions: Invalid value: ["v3"]: must include at least one of v1, v1beta1',
  ]);
  // Before the CRD is established its scope may still change, as kube's requireImmutableNames allows.
  assert.deepEqual(validateCrdUpdate(crd({ scope: 'Cluster' }), crd({})).map(fieldErrorMessage), []);
  assert.deepEqual(validateCrdStatus(crd({}, { storedVersions: ['v1'], acceptedNames: { plural: 'Bad' } })).map(fieldErrorMessage).length, 1);
});

test('naming: accepted unless in use in the group; conflicts reported by kube reason', () => {
  const c = crd({ names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', shortNames: ['wd', 'w'] } });
  const free = calculateNames(c, { resources: new Set(), kinds: new Set() });
  assert.equal(free.namesAccepted.status, 'True');
  assert.equal(free.namesAccepted.reason, 'NoConflicts');
  assert.equal(free.established.reason, 'Installing');
  assert.deepEqual(free.names.shortNames, ['wd', 'w']);
  const taken = calculateNames(c, { resources: new Set(['wd', 'w']), kinds: new Set() });
  assert.deepEqual({ reason: taken.namesAccepted.reason, message: taken.namesAccepted.message }, { reason: 'ShortNamesConflict', message: '["wd" is already in use, "w" is already in use]' });
  assert.equal(taken.names.shortNames, undefined, 'short names not accepted');
  assert.equal(taken.established.reason, 'NotAccepted');
  const plural = calculateNames(c, { resources: new Set(['widgets']), kinds: new Set() });
  assert.equal(plural.namesAccepted.reason, 'PluralConflict');
});
