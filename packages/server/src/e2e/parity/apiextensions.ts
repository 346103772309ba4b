/**
 * CustomResourceDefinitions as apiextensions-apiserver 1.27 validates them (ValidateCustomResourceDefinition and
 * its update): names and `metadata.name`, the group and scope, versions, printer columns, the conversion strategy
 * (with the internal type's paths kube reports: `webhookClientConfig`, `conversionReviewVersions`) and structural
 * schemas (ValidateStructural: the root, types, value validations). CRDs are cluster-wide, so every case has names
 * of its own.
 */
import { grouped, invalid, rejectedCreate, type ParityCase } from './corpus.js';

const crds = grouped('apiextensions', 'v1', 'customresourcedefinitions', 'CustomResourceDefinition', false);
const schema = { openAPIV3Schema: { type: 'object' } };

/** A valid CRD of `plural` in example.com, with `spec` laid over it. */
function crd(plural: string, spec: Record<string, unknown> = {}, name = `${plural}.example.com`): Record<string, unknown> {
  const kind = plural[0]!.toUpperCase() + plural.slice(1, -1);
  return {
    metadata: { name },
    spec: {
      group: 'example.com', scope: 'Namespaced', names: { plural, singular: plural.slice(0, -1), kind, listKind: `${kind}List` },
      versions: [{ name: 'v1', served: true, storage: true, schema }], ...spec,
    },
  };
}

/** The CustomResourceDefinition corpus. */
export function apiextensionsCases(): ParityCase[] {
  return [
    rejectedCreate('CustomResourceDefinition: the name is <plural>.<group>; singular a DNS-1035 label; kind and listKind differ', crds,
      crd('tallies', { names: { plural: 'tally', singular: 'Tally', kind: 'Tally', listKind: 'Tally' } }),
      ['metadata.name', 'spec.names.singular', 'spec.names.listKind'],
      ['must be spec.names.plural+"."+spec.group', 'a DNS-1035 label must consist of lower case alphanumeric characters', 'kind and listKind may not be the same']),
    rejectedCreate('CustomResourceDefinition: a group with a dot, a known scope', crds,
      crd('sprockets', { group: 'example', scope: 'Global' }, 'sprockets.example'),
      ['spec.group', 'spec.scope'], ['should be a domain with at least one dot', 'Unsupported value: "Global"']),
    rejectedCreate('CustomResourceDefinition: exactly one storage version, DNS-1035 version names', crds,
      crd('cogs', { versions: [{ name: 'v1', served: true, storage: true, schema }, { name: 'V2', served: true, storage: true, schema }] }),
      ['spec.versions[1].name', 'spec.versions'], ['must have exactly one version marked as storage version']),
    rejectedCreate('CustomResourceDefinition: a Webhook conversion needs a client config and review versions (internal paths)', crds,
      crd('levers', { conversion: { strategy: 'Webhook' } }),
      ['spec.conversion.webhookClientConfig', 'spec.conversion.conversionReviewVersions'], ['required when strategy is set to Webhook']),
    rejectedCreate('CustomResourceDefinition: the None conversion carries no webhook', crds,
      crd('pulleys', { conversion: { strategy: 'None', webhook: { conversionReviewVersions: ['v1'] } } }),
      ['spec.conversion.conversionReviewVersions'], ['should not be set when strategy is not set to Webhook']),
    rejectedCreate('CustomResourceDefinition: a conversion webhook URL is https without a query', crds,
      crd('ratchets', { conversion: { strategy: 'Webhook', webhook: { clientConfig: { url: 'http://example.com/convert?x=1' }, conversionReviewVersions: ['v1'] } } }),
      ['spec.conversion.webhookClientConfig.url', 'spec.conversion.webhookClientConfig.url'],
      ["'https' is the only allowed URL scheme; desired format: https://host[/path]", 'query parameters are not permitted in the URL']),
    rejectedCreate('CustomResourceDefinition: printer column types and JSONPaths (the internal field name)', crds,
      crd('springs', { versions: [{ name: 'v1', served: true, storage: true, schema, additionalPrinterColumns: [{ name: 'A', type: 'float', jsonPath: 'spec.a' }] }] }),
      ['spec.versions[0].additionalPrinterColumns[0].type', 'spec.versions[0].additionalPrinterColumns[0].JSONPath'],
      ['must be one of boolean,date,integer,number,string', 'must be a simple json path starting with .']),
    rejectedCreate('CustomResourceDefinition: scale paths under .spec and .status', crds,
      crd('gears', { versions: [{ name: 'v1', served: true, storage: true, schema, subresources: { scale: { specReplicasPath: '.metadata.r', statusReplicasPath: 'status.r' } } }] }),
      ['spec.versions[0].subresources.scale.specReplicasPath', 'spec.versions[0].subresources.scale.statusReplicasPath'],
      ['should be a json path under .spec', 'must be a simple json path starting with .']),
    rejectedCreate('CustomResourceDefinition: a deprecation warning only on a deprecated version', crds,
      crd('axles', { versions: [{ name: 'v1', served: true, storage: true, schema, deprecationWarning: 'old' }] }),
      ['spec.versions[0].deprecationWarning'], ['can only be set for deprecated versions']),
    rejectedCreate('CustomResourceDefinition: a structural schema types every property', crds,
      crd('wheels', { versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { properties: { a: { type: 'string' } } } } } } }] }),
      ['spec.versions[0].schema.openAPIV3Schema.properties[spec].type'], ['must not be empty for specified object fields']),
    rejectedCreate('CustomResourceDefinition: no additionalProperties at the root; value validations say nothing structural', crds,
      crd('nuts', { versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: {
        type: 'object', additionalProperties: { type: 'string' },
        properties: { spec: { type: 'string', anyOf: [{ type: 'integer' }], allOf: [{ nullable: true, default: 'x' }] } },
      } } }] }),
      // additionalProperties beside properties is refused by the generic rule too: kube runs both.
      ['spec.versions[0].schema.openAPIV3Schema.additionalProperties', 'spec.versions[0].schema.openAPIV3Schema.additionalProperties',
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].anyOf[0].type',
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].allOf[0].nullable', 'spec.versions[0].schema.openAPIV3Schema.properties[spec].allOf[0].default'],
      ['must not be used at the root', 'additionalProperties and properties are mutual exclusive', 'must be empty to be structural', 'must be false to be structural', 'must be undefined to be structural']),
    rejectedCreate('CustomResourceDefinition: defaults are validated against their schema, the bad values printed as Go prints decoded JSON', crds,
      crd('bolts', { versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: {
        type: 'object', properties: { spec: { type: 'object', properties: {
          count: { type: 'integer', default: 'three' },
          tags: { type: 'array', minItems: 2, items: { type: 'string' }, default: ['a'] },
          limits: { type: 'object', minProperties: 2, additionalProperties: { type: 'number' }, default: { cpu: 1.5 } },
          ratio: { type: 'number', maximum: 1000000, default: 1234567.5 },
          modes: { type: 'array', items: { type: 'string' }, enum: [['x']], default: ['y'] },
        } } },
      } } }] }),
      ['spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[count].default',
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[tags].default',
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[limits].default',
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[ratio].default',
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[modes].default'],
      // A type error reports the JSON type as the value; lists and maps print as %#v, float64s as %v.
      ['properties[count].default: Invalid value: "string": must be of type integer: "string"',
        'properties[tags].default: Invalid value: []interface {}{"a"}: should have at least 2 items',
        'properties[limits].default: Invalid value: map[string]interface {}{"cpu":1.5}: should have at least 2 properties',
        'properties[ratio].default: Invalid value: 1.2345675e+06: should be less than or equal to 1e+06',
        'properties[modes].default: Unsupported value: []interface {}{"y"}: supported values: "[\\"x\\"]"']),
    rejectedCreate('CustomResourceDefinition: with the status subresource the schema root holds only the allowed fields', crds,
      crd('clamps', { versions: [{ name: 'v1', served: true, storage: true, subresources: { status: {} }, schema: { openAPIV3Schema: {
        type: 'object', minProperties: 1, properties: { spec: { type: 'object' } },
      } } }] }),
      ['spec.versions[0].schema.openAPIV3Schema'], ['fields are allowed at the root of the schema if the status subresource is enabled']),
    {
      name: 'CustomResourceDefinition: a field preserving unknown fields needs no type; int-or-string takes its idiom', resource: crds,
      steps: [{
        op: 'create',
        object: crd('washers', { versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: {
          type: 'object', properties: {
            spec: { 'x-kubernetes-preserve-unknown-fields': true },
            size: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
          },
        } } }] }),
        expect: { code: 201 },
      }],
    },
    {
      name: 'CustomResourceDefinition: the plural is immutable', resource: crds,
      steps: [
        { op: 'create', object: crd('bolts'), expect: { code: 201 } },
        { op: 'update', merge: { spec: { names: { plural: 'screws' } } }, expect: invalid(['metadata.name', 'spec.names.plural'], ['field is immutable']) },
      ],
    },
  ];
}
