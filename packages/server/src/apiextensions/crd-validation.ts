/**
 * Validation and defaulting of CustomResourceDefinitions as apiextensions-apiserver 1.27 does them
 * (ValidateCustomResourceDefinition, ...Update, ...Status and SetDefaults_CustomResourceDefinition), with its
 * messages and field paths: the name is `<plural>.<group>`, the group a DNS subdomain with a dot, the scope
 * Namespaced or Cluster, exactly one storage version among unique DNS-1035 version names, well-formed names,
 * printer columns and subresources, a structural schema for every version, a webhook conversion's client config,
 * and `status.storedVersions` naming only versions of the spec. Group and plural never change, nor the scope and kind
 * once the CRD is established.
 */
import { fieldError, type FieldError } from '@svc-apiserver/api';
import { isDns1035Label, isDns1123Subdomain } from '../meta/name-rules.js';
import { validateWebhookService, validateWebhookUrl } from '../meta/webhook-client-config.js';
import {
  isConditionTrue, schemaOf, specOf, storageVersionOf, versionsOf, type CrdColumn, type CrdNames, type CrdScale, type CrdVersion,
  type CustomResourceDefinition, type WebhookClientConfig,
} from './crd.js';
import { isRecord } from './schema/json-schema-props.js';
import { validateSchema } from './schema/schema-validation.js';
import { compileSchemaRules } from './validation-rules/compiled-rules.js';

const columnTypes = ['boolean', 'date', 'integer', 'number', 'string'];
const columnFormats = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];
const conversionReviewVersions = ['v1', 'v1beta1'];

/** Go's `%#v` of the versions list, as kube's messages about `spec.versions` print it (nil for none). */
function versionsValue(versions: readonly CrdVersion[]): unknown {
  return versions.length === 0 ? '[]apiextensions.CustomResourceDefinitionVersion(nil)' : versions.map((v) => v.name ?? '');
}

/** SetDefaults_CustomResourceDefinition: singular, listKind, the None conversion, webhook service ports. */
export function defaultCrd(crd: CustomResourceDefinition): void {
  if (!isRecord(crd.spec)) return;
  const spec = crd.spec as Record<string, unknown>;
  const names = isRecord(spec['names']) ? spec['names'] : undefined;
  if (names !== undefined) {
    const kind = typeof names['kind'] === 'string' ? names['kind'] : '';
    if (!names['singular'] && kind !== '') names['singular'] = kind.toLowerCase();
    if (!names['listKind'] && kind !== '') names['listKind'] = `${kind}List`;
  }
  if (!isRecord(spec['conversion'])) spec['conversion'] = { strategy: 'None' };
  const service = (spec['conversion'] as { webhook?: { clientConfig?: { service?: Record<string, unknown> } } }).webhook?.clientConfig?.service;
  if (isRecord(service) && service['port'] === undefined) service['port'] = 443;
}

/**
 * ValidateCustomResourceDefinition. `requireRecognizedVersion`: a conversion webhook must understand a
 * ConversionReview version this server sends (an update relaxes it when the old CRD already lacked one).
 */
export function validateCrd(crd: CustomResourceDefinition, requireRecognizedVersion = true): FieldError[] {
  const spec = specOf(crd);
  const errors: FieldError[] = [];
  const name = crd.metadata?.name ?? '';
  const wanted = `${spec.names?.plural ?? ''}.${spec.group ?? ''}`;
  if (name !== '' && name !== wanted) errors.push(fieldError.invalid('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));
  errors.push(...validateSpec(crd, requireRecognizedVersion));
  errors.push(...validateStoredVersions(crd));
  return errors;
}

function validateSpec(crd: CustomResourceDefinition, requireRecognizedVersion: boolean): FieldError[] {
  const spec = specOf(crd);
  const errors: FieldError[] = [];
  const group = spec.group ?? '';
  if (group === '') errors.push(fieldError.required('spec.group', ''));
  else {
    const bad = isDns1123Subdomain(group);
    if (bad.length > 0) errors.push(fieldError.invalid('spec.group', group, bad.join(',')));
    else if (group.split('.').length < 2) errors.push(fieldError.invalid('spec.group', group, 'should be a domain with at least one dot'));
  }
  const scope = spec.scope ?? '';
  if (scope === '') errors.push(fieldError.required('spec.scope', ''));
  else if (scope !== 'Cluster' && scope !== 'Namespaced') errors.push(fieldError.notSupported('spec.scope', scope, ['Cluster', 'Namespaced']));

  const versions = versionsOf(crd);
  const seen = new Set<string>();
  let unique = true;
  let storage = 0;
  versions.forEach((v, i) => {
    const path = `spec.versions[${i}]`;
    if (v.storage === true) storage++;
    const vname = v.name ?? '';
    if (seen.has(vname)) unique = false;
    seen.add(vname);
    const bad = isDns1035Label(vname);
    if (bad.length > 0) errors.push(fieldError.invalid(`${path}.name`, vname, bad.join(',')));
    errors.push(...validateVersion(v, path));
  });
  if (!unique) errors.push(fieldError.invalid('spec.versions', versionsValue(versions), 'must contain unique version names'));
  if (storage !== 1) errors.push(fieldError.invalid('spec.versions', versionsValue(versions), 'must have exactly one version marked as storage version'));

  errors.push(...validateNames(spec.names ?? {}, 'spec.names', true));
  errors.push(...validateConversion(crd, requireRecognizedVersion));
  if (spec.preserveUnknownFields === true) {
    errors.push(fieldError.invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead'));
  }
  return errors;
}

function validateVersion(v: CrdVersion, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (v.deprecationWarning !== undefined) {
    for (const msg of deprecationWarningErrors(v.deprecated === true, v.deprecationWarning)) errors.push(fieldError.invalid(`${path}.deprecationWarning`, v.deprecationWarning, msg));
  }
  const schema = schemaOf(v);
  if (schema === undefined) errors.push(fieldError.required(`${path}.schema.openAPIV3Schema`, 'schemas are required'));
  else {
    if (isRecord(v.subresources?.status)) errors.push(...statusRootErrors(schema, `${path}.schema.openAPIV3Schema`));
    const schemaErrors = validateSchema(schema, `${path}.schema.openAPIV3Schema`);
    errors.push(...schemaErrors);
    // Rules are compiled against the structural schema's types, so only a structural schema gets that far.
    if (schemaErrors.length === 0) errors.push(...compileSchemaRules(schema, `${path}.schema.openAPIV3Schema`).errors);
  }
  const scale: CrdScale | undefined = isRecord(v.subresources?.scale) ? v.subresources.scale : undefined;
  if (scale !== undefined) {
    const spath = `${path}.subresources.scale`;
    if (!scale.specReplicasPath) errors.push(fieldError.required(`${spath}.specReplicasPath`, ''));
    else errors.push(...scalePathErrors(scale.specReplicasPath, `${spath}.specReplicasPath`, ['.spec.'], 'should be a json path under .spec'));
    if (!scale.statusReplicasPath) errors.push(fieldError.required(`${spath}.statusReplicasPath`, ''));
    else errors.push(...scalePathErrors(scale.statusReplicasPath, `${spath}.statusReplicasPath`, ['.status.'], 'should be a json path under .status'));
    if (scale.labelSelectorPath) {
      errors.push(...scalePathErrors(scale.labelSelectorPath, `${spath}.labelSelectorPath`, ['.spec.', '.status.'], 'should be a json path under either .spec or .status'));
    }
  }
  (Array.isArray(v.additionalPrinterColumns) ? v.additionalPrinterColumns : []).forEach((c, i) => {
    errors.push(...validateColumn(isRecord(c) ? c : {}, `${path}.additionalPrinterColumns[${i}]`));
  });
  return errors;
}

/** validateDeprecationWarning: only on deprecated versions, 1 to 256 bytes, printable UTF-8 (Go's unicode.IsPrint). */
function deprecationWarningErrors(deprecated: boolean, warning: string): string[] {
  if (!deprecated) return ['can only be set for deprecated versions'];
  const errors: string[] = [];
  if (Buffer.byteLength(warning, 'utf8') > 256) errors.push('must be <= 256 characters long');
  if (warning.length === 0) errors.push('must not be an empty string');
  // Go ranges over bytes offsets; the index kube reports is the rune's byte offset.
  let offset = 0;
  for (const ch of warning) {
    if (/\p{Cc}/u.test(ch)) {
      errors.push(`must only contain printable UTF-8 characters; control character found at index ${offset}`);
      break;
    }
    if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(ch)) {
      errors.push(`must only contain printable UTF-8 characters; non-printable character found at index ${offset}`);
      break;
    }
    offset += Buffer.byteLength(ch, 'utf8');
  }
  return errors;
}

/**
 * JSONSchemaProps' fields in their Go order, by JSON name, with the Go names kube's message lists: with the status
 * subresource on, the root may hold only the allowed ones, since the status schema is cut out of its properties.
 */
const rootFields: readonly (readonly [string, string, boolean])[] = [
  ['id', 'ID', false], ['$schema', 'Schema', false], ['$ref', 'Ref', false], ['description', 'Description', true], ['type', 'Type', true],
  ['format', 'Format', true], ['title', 'Title', true], ['default', 'Default', false], ['maximum', 'Maximum', true],
  ['exclusiveMaximum', 'ExclusiveMaximum', true], ['minimum', 'Minimum', true], ['exclusiveMinimum', 'ExclusiveMinimum', true],
  ['maxLength', 'MaxLength', true], ['minLength', 'MinLength', true], ['pattern', 'Pattern', true], ['maxItems', 'MaxItems', true],
  ['minItems', 'MinItems', true], ['uniqueItems', 'UniqueItems', true], ['multipleOf', 'MultipleOf', true], ['enum', 'Enum', false],
  ['maxProperties', 'MaxProperties', false], ['minProperties', 'MinProperties', false], ['required', 'Required', true],
  ['items', 'Items', true], ['allOf', 'AllOf', false], ['oneOf', 'OneOf', false], ['anyOf', 'AnyOf', false], ['not', 'Not', false],
  ['properties', 'Properties', true], ['additionalProperties', 'AdditionalProperties', false], ['patternProperties', 'PatternProperties', false],
  ['dependencies', 'Dependencies', false], ['additionalItems', 'AdditionalItems', false], ['definitions', 'Definitions', false],
  ['externalDocs', 'ExternalDocs', true], ['example', 'Example', true], ['nullable', 'Nullable', false],
  ['x-kubernetes-preserve-unknown-fields', 'XPreserveUnknownFields', true], ['x-kubernetes-embedded-resource', 'XEmbeddedResource', false],
  ['x-kubernetes-int-or-string', 'XIntOrString', false], ['x-kubernetes-list-map-keys', 'XListMapKeys', false],
  ['x-kubernetes-list-type', 'XListType', false], ['x-kubernetes-map-type', 'XMapType', false], ['x-kubernetes-validations', 'XValidations', true],
];
const allowedAtRoot = rootFields.filter(([, , allowed]) => allowed).map(([, goName]) => goName);

/**
 * The root of a schema whose version has the status subresource (validateCustomResourceDefinitionValidation): an
 * object, with only the allowed fields set (Go's zero values, `false` and `''`, count as unset); the first field
 * out of place is the one error, as kube stops there.
 */
function statusRootErrors(schema: Record<string, unknown>, path: string): FieldError[] {
  for (const [jsonName, goName, allowed] of rootFields) {
    const value = schema[jsonName];
    if (value === undefined || value === null || value === false || value === '') continue;
    if (goName === 'Type') {
      if (value !== 'object') return [fieldError.invalid(`${path}.type`, value, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled')];
      continue;
    }
    if (!allowed) return [fieldError.invalid(path, schema, `only [${allowedAtRoot.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`)];
  }
  return [];
}

/** A scale subresource path: a simple JSON path (validateSimpleJSONPath) under one of `prefixes`. */
function scalePathErrors(p: string, path: string, prefixes: readonly string[], message: string): FieldError[] {
  const simple = simpleJsonPathErrors(p, path);
  if (simple.length > 0) return simple;
  return prefixes.some((prefix) => p.startsWith(prefix)) ? [] : [fieldError.invalid(path, p, message)];
}

/** validateSimpleJSONPath: kube checks only that the path starts with a dot. */
function simpleJsonPathErrors(p: string, path: string): FieldError[] {
  if (p === '') return [fieldError.invalid(path, p, 'must not be empty')];
  if (!p.startsWith('.')) return [fieldError.invalid(path, p, 'must be a simple json path starting with .')];
  return [];
}

/** ValidateCustomResourceColumnDefinition: errors name the internal field `JSONPath`, as kube's do. */
function validateColumn(c: CrdColumn, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const types = `must be one of ${columnTypes.join(',')}`;
  if (!c.name) errors.push(fieldError.required(`${path}.name`, ''));
  if (!c.type) errors.push(fieldError.required(`${path}.type`, types));
  else if (!columnTypes.includes(c.type)) errors.push(fieldError.invalid(`${path}.type`, c.type, types));
  if (c.format && !columnFormats.includes(c.format)) errors.push(fieldError.invalid(`${path}.format`, c.format, `must be one of ${columnFormats.join(',')}`));
  if (!c.jsonPath) errors.push(fieldError.required(`${path}.JSONPath`, ''));
  else errors.push(...simpleJsonPathErrors(c.jsonPath, `${path}.JSONPath`));
  return errors;
}

/** ValidateCustomResourceDefinitionNames (and the required ones of the spec when `required`). */
export function validateNames(names: CrdNames, path: string, required: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const label = (field: string, value: string, prefix = ''): void => {
    const bad = isDns1035Label(field === 'kind' || field === 'listKind' ? value.toLowerCase() : value);
    if (bad.length > 0) errors.push(fieldError.invalid(`${path}.${field}`, value, prefix + bad.join(',')));
  };
  for (const field of ['plural', 'singular', 'kind', 'listKind'] as const) {
    const value = names[field] ?? '';
    if (value === '') {
      if (required) errors.push(fieldError.required(`${path}.${field}`, ''));
      continue;
    }
    label(field, value, field === 'kind' || field === 'listKind' ? 'may have mixed case, but should otherwise match: ' : '');
  }
  (Array.isArray(names.shortNames) ? names.shortNames : []).forEach((s, i) => {
    const bad = isDns1035Label(String(s));
    if (bad.length > 0) errors.push(fieldError.invalid(`${path}.shortNames[${i}]`, s, bad.join(',')));
  });
  if (names.kind && names.kind === names.listKind) errors.push(fieldError.invalid(`${path}.listKind`, names.listKind, 'kind and listKind may not be the same'));
  (Array.isArray(names.categories) ? names.categories : []).forEach((s, i) => {
    const bad = isDns1035Label(String(s));
    if (bad.length > 0) errors.push(fieldError.invalid(`${path}.categories[${i}]`, s, bad.join(',')));
  });
  return errors;
}

/**
 * validateCustomResourceConversion, with the paths of the internal type kube validates: v1's `webhook.clientConfig`
 * is `webhookClientConfig` there and `webhook.conversionReviewVersions` is `conversionReviewVersions`.
 */
function validateConversion(crd: CustomResourceDefinition, requireRecognizedVersion: boolean): FieldError[] {
  const spec = specOf(crd);
  const conversion = spec.conversion;
  if (!isRecord(conversion)) return [];
  const errors: FieldError[] = [];
  const strategy = conversion.strategy ?? '';
  if (strategy !== 'None' && spec.preserveUnknownFields === true) {
    errors.push(fieldError.invalid('spec.conversion.strategy', strategy, 'must be None if spec.preserveUnknownFields is true'));
  }
  if (strategy === '') errors.push(fieldError.required('spec.conversion.strategy', ''));
  else if (strategy !== 'None' && strategy !== 'Webhook') errors.push(fieldError.notSupported('spec.conversion.strategy', strategy, ['None', 'Webhook']));
  const webhook = isRecord(conversion.webhook) ? conversion.webhook : undefined;
  const cc = isRecord(webhook?.clientConfig) ? webhook.clientConfig : undefined;
  const reviews = Array.isArray(webhook?.conversionReviewVersions) ? webhook.conversionReviewVersions : [];
  if (strategy !== 'Webhook') {
    if (cc !== undefined) errors.push(fieldError.forbidden('spec.conversion.webhookClientConfig', 'should not be set when strategy is not set to Webhook'));
    if (reviews.length > 0) errors.push(fieldError.forbidden('spec.conversion.conversionReviewVersions', 'should not be set when strategy is not set to Webhook'));
    return errors;
  }
  if (cc === undefined) errors.push(fieldError.required('spec.conversion.webhookClientConfig', 'required when strategy is set to Webhook'));
  else errors.push(...validateClientConfig(cc, 'spec.conversion.webhookClientConfig'));
  errors.push(...conversionReviewVersionErrors(reviews, requireRecognizedVersion));
  return errors;
}

/** validateConversionReviewVersions: some, unique DNS-1035 labels, one of them understood unless the old CRD had none. */
function conversionReviewVersionErrors(reviews: readonly string[], requireRecognizedVersion: boolean): FieldError[] {
  const path = 'spec.conversion.conversionReviewVersions';
  if (reviews.length === 0) return [fieldError.required(path, '')];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  reviews.forEach((v, i) => {
    if (seen.has(v)) {
      errors.push(fieldError.invalid(`${path}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDns1035Label(v)) errors.push(fieldError.invalid(`${path}[${i}]`, v, msg));
  });
  if (requireRecognizedVersion && !reviews.some((r) => conversionReviewVersions.includes(r))) {
    errors.push(fieldError.invalid(path, reviews, `must include at least one of ${conversionReviewVersions.join(', ')}`));
  }
  return errors;
}

/** The client config of a conversion webhook: exactly one of `url` and `service`, each as k8s.io/apiserver validates it. */
function validateClientConfig(cc: WebhookClientConfig, path: string): FieldError[] {
  const hasUrl = cc.url !== undefined && cc.url !== null;
  const hasService = cc.service !== undefined && cc.service !== null;
  if (hasUrl === hasService) return [fieldError.required(path, 'exactly one of url or service is required')];
  if (hasUrl) return validateWebhookUrl(String(cc.url), `${path}.url`);
  return validateWebhookService(isRecord(cc.service) ? cc.service : {}, `${path}.service`);
}

/** ValidateCustomResourceDefinitionStoredVersions. */
function validateStoredVersions(crd: CustomResourceDefinition): FieldError[] {
  const stored = Array.isArray(crd.status?.storedVersions) ? crd.status!.storedVersions! : [];
  const errors: FieldError[] = [];
  if (stored.length === 0) {
    errors.push(fieldError.invalid('status.storedVersions', stored, 'must have at least one stored version'));
    return errors;
  }
  const names = new Set(versionsOf(crd).map((v) => v.name));
  stored.forEach((s, i) => {
    if (!names.has(s)) errors.push(fieldError.invalid(`status.storedVersions[${i}]`, s, 'must appear in spec.versions'));
  });
  const storage = storageVersionOf(crd);
  if (storage !== undefined && !stored.includes(storage)) {
    errors.push(fieldError.invalid('status.storedVersions', stored, `must have the storage version ${storage}`));
  }
  return errors;
}

/** ValidateCustomResourceDefinitionUpdate: validation of the new object plus what may not change. */
export function validateCrdUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition): FieldError[] {
  const oldWebhook = specOf(old).conversion?.webhook;
  const oldReviews = isRecord(oldWebhook) && Array.isArray(oldWebhook.conversionReviewVersions) ? oldWebhook.conversionReviewVersions : [];
  const errors = validateCrd(crd, oldReviews.length === 0 || oldReviews.some((r) => conversionReviewVersions.includes(r)));
  const spec = specOf(crd);
  const oldSpec = specOf(old);
  const immutable = (path: string, a: unknown, b: unknown): void => {
    if (a !== b) errors.push(fieldError.invalid(path, a ?? '', 'field is immutable'));
  };
  // The scope and kind shape storage once served; the group and plural make the name, which never changes.
  if (isConditionTrue(old, 'Established')) {
    immutable('spec.scope', spec.scope, oldSpec.scope);
    immutable('spec.names.kind', spec.names?.kind, oldSpec.names?.kind);
  }
  immutable('spec.group', spec.group, oldSpec.group);
  immutable('spec.names.plural', spec.names?.plural, oldSpec.names?.plural);
  return errors;
}

/** ValidateUpdateCustomResourceDefinitionStatus: accepted names well formed, stored versions in the spec. */
export function validateCrdStatus(crd: CustomResourceDefinition): FieldError[] {
  const accepted = crd.status?.acceptedNames;
  return [...(isRecord(accepted) ? validateNames(accepted, 'status.acceptedNames', false) : []), ...validateStoredVersions(crd)];
}
