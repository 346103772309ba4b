/**
 * Validation and defaulting of CustomResourceDefinitions as apiextensions-apiserver 1.27 does them
 * (ValidateCustomResourceDefinition, ...Update, ...Status and SetDefaults_CustomResourceDefinition), with its
 * messages and field paths: the name is `<plural>.<group>`, the group a DNS subdomain with a dot, the scope
 * Namespaced or Cluster, exactly one storage version among unique DNS-1035 version names, well-formed names,
 * printer columns and subresources, a structural schema for every version, a webhook conversion's client config,
 * and `status.storedVersions` naming only versions of the spec. Scope, group and plural never change, nor the kind
 * once the CRD is established.
 */
import { fieldError, type FieldError } from '@svc-apiserver/api';
import type JsonPath from 'jsonpath';
import { lazyRequire } from '../lazy-module.js';
import { isDns1035Label, isDns1123Subdomain } from '../meta/name-rules.js';
import {
  isConditionTrue, schemaOf, specOf, storageVersionOf, versionsOf, type CrdColumn, type CrdNames, type CrdScale, type CrdVersion,
  type CustomResourceDefinition, type WebhookClientConfig,
} from './crd.js';
import { isRecord } from './schema/json-schema-props.js';
import { validateSchema } from './schema/schema-validation.js';
import { compileSchemaRules } from './validation-rules/compiled-rules.js';

/** The JSONPath library, loaded by the first CRD with printer columns validated. */
const jsonpath = lazyRequire<typeof JsonPath>('jsonpath');

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

/** ValidateCustomResourceDefinition. */
export function validateCrd(crd: CustomResourceDefinition): FieldError[] {
  const spec = specOf(crd);
  const errors: FieldError[] = [];
  const name = crd.metadata?.name ?? '';
  const wanted = `${spec.names?.plural ?? ''}.${spec.group ?? ''}`;
  if (name !== '' && name !== wanted) errors.push(fieldError.invalid('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));
  errors.push(...validateSpec(crd));
  errors.push(...validateStoredVersions(crd));
  return errors;
}

function validateSpec(crd: CustomResourceDefinition): FieldError[] {
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
  errors.push(...validateConversion(crd));
  if (spec.preserveUnknownFields === true) {
    errors.push(fieldError.invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead'));
  }
  return errors;
}

function validateVersion(v: CrdVersion, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const schema = schemaOf(v);
  if (schema === undefined) errors.push(fieldError.required(`${path}.schema.openAPIV3Schema`, 'schemas are required'));
  else {
    const schemaErrors = validateSchema(schema, `${path}.schema.openAPIV3Schema`);
    errors.push(...schemaErrors);
    // Rules are compiled against the structural schema's types, so only a structural schema gets that far.
    if (schemaErrors.length === 0) errors.push(...compileSchemaRules(schema, `${path}.schema.openAPIV3Schema`).errors);
  }
  const scale: CrdScale | undefined = isRecord(v.subresources?.scale) ? v.subresources.scale : undefined;
  if (scale !== undefined) {
    const spath = `${path}.subresources.scale`;
    if (!scale.specReplicasPath) errors.push(fieldError.required(`${spath}.specReplicasPath`, ''));
    else errors.push(...validateReplicasPath(scale.specReplicasPath, `${spath}.specReplicasPath`, '.spec', schema));
    if (!scale.statusReplicasPath) errors.push(fieldError.required(`${spath}.statusReplicasPath`, ''));
    else errors.push(...validateReplicasPath(scale.statusReplicasPath, `${spath}.statusReplicasPath`, '.status', schema));
    if (scale.labelSelectorPath) {
      const p = scale.labelSelectorPath;
      if (!/^\.(spec|status)(\.[^.[\]]+)+$/.test(p)) {
        errors.push(fieldError.invalid(`${spath}.labelSelectorPath`, p, 'should be a json path under either .spec or .status'));
      }
    }
  }
  (Array.isArray(v.additionalPrinterColumns) ? v.additionalPrinterColumns : []).forEach((c, i) => {
    errors.push(...validateColumn(isRecord(c) ? c : {}, `${path}.additionalPrinterColumns[${i}]`));
  });
  if (v.deprecationWarning !== undefined) {
    if (v.deprecated !== true) errors.push(fieldError.invalid(`${path}.deprecationWarning`, v.deprecationWarning, 'can only be set for deprecated versions'));
    else if (v.deprecationWarning.length > 256) errors.push(fieldError.tooLong(`${path}.deprecationWarning`, 256));
  }
  return errors;
}

/** specReplicasPath and statusReplicasPath: a simple path under `.spec` or `.status` to an integer field, if declared. */
function validateReplicasPath(p: string, path: string, under: string, schema: Record<string, unknown> | undefined): FieldError[] {
  if (!new RegExp(`^\\${under}(\\.[^.[\\]]+)+$`).test(p)) {
    return [fieldError.invalid(path, p, `should be a json path under ${under}`)];
  }
  let node: unknown = schema;
  for (const part of p.slice(1).split('.')) {
    const props = isRecord(node) && isRecord(node['properties']) ? node['properties'] : undefined;
    node = props?.[part];
    if (node === undefined) return [];
  }
  if (isRecord(node) && node['type'] !== 'integer') {
    return [fieldError.invalid(path, p, 'should be a json path to an integer field')];
  }
  return [];
}

function validateColumn(c: CrdColumn, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!c.name) errors.push(fieldError.required(`${path}.name`, ''));
  if (!c.type) errors.push(fieldError.required(`${path}.type`, ''));
  else if (!columnTypes.includes(c.type)) errors.push(fieldError.notSupported(`${path}.type`, c.type, columnTypes));
  if (c.format && !columnFormats.includes(c.format)) errors.push(fieldError.notSupported(`${path}.format`, c.format, columnFormats));
  if (typeof c.priority === 'number' && c.priority < 0) errors.push(fieldError.invalid(`${path}.priority`, c.priority, 'cannot be negative'));
  if (!c.jsonPath) errors.push(fieldError.required(`${path}.jsonPath`, ''));
  else if (!isSimpleJsonPath(c.jsonPath)) errors.push(fieldError.invalid(`${path}.jsonPath`, c.jsonPath, 'must be a simple json path'));
  return errors;
}

/** A JSONPath kube's template parser reads (`.status.conditions[?(@.type=="Ready")].status`). */
export function isSimpleJsonPath(p: string): boolean {
  if (!p.startsWith('.') && !p.startsWith('[')) return false;
  try {
    jsonpath().parse(`$${p}`);
    return true;
  } catch {
    return false;
  }
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

function validateConversion(crd: CustomResourceDefinition): FieldError[] {
  const conversion = specOf(crd).conversion;
  if (!isRecord(conversion)) return [];
  const errors: FieldError[] = [];
  const strategy = conversion.strategy ?? '';
  if (strategy !== 'None' && strategy !== 'Webhook') {
    errors.push(fieldError.notSupported('spec.conversion.strategy', strategy, ['None', 'Webhook']));
    return errors;
  }
  if (strategy === 'None') {
    if (conversion.webhook !== undefined) errors.push(fieldError.forbidden('spec.conversion.webhook', 'should not be set when strategy is not set to Webhook'));
    return errors;
  }
  const webhook = conversion.webhook;
  if (!isRecord(webhook)) return [fieldError.required('spec.conversion.webhook', 'required when strategy is set to Webhook')];
  const cc = webhook.clientConfig;
  if (!isRecord(cc)) errors.push(fieldError.required('spec.conversion.webhook.clientConfig', 'required when strategy is set to Webhook'));
  else errors.push(...validateClientConfig(cc, 'spec.conversion.webhook.clientConfig'));
  const reviews = Array.isArray(webhook.conversionReviewVersions) ? webhook.conversionReviewVersions : [];
  if (reviews.length === 0) {
    errors.push(fieldError.required('spec.conversion.webhook.conversionReviewVersions', 'must specify one of v1, v1beta1'));
  } else if (!reviews.some((r) => conversionReviewVersions.includes(r))) {
    errors.push(fieldError.invalid('spec.conversion.webhook.conversionReviewVersions', reviews, 'must include at least one of v1, v1beta1'));
  }
  return errors;
}

/** A webhook client config: exactly one of `url` (https, no user, fragment or query) and `service`. */
export function validateClientConfig(cc: WebhookClientConfig, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const hasUrl = typeof cc.url === 'string' && cc.url !== '';
  const hasService = isRecord(cc.service);
  if (hasUrl === hasService) {
    errors.push(fieldError.required(path, 'exactly one of url or service is required'));
    return errors;
  }
  if (hasUrl) {
    let u: URL | undefined;
    try {
      u = new URL(cc.url!);
    } catch {
      errors.push(fieldError.invalid(`${path}.url`, cc.url, 'host must be specified'));
    }
    if (u !== undefined) {
      if (u.protocol !== 'https:') errors.push(fieldError.invalid(`${path}.url`, cc.url, "'https' is the only allowed URL scheme"));
      if (u.username !== '' || u.password !== '') errors.push(fieldError.invalid(`${path}.url`, cc.url, 'user information is not permitted in the URL'));
      if (u.hash !== '') errors.push(fieldError.invalid(`${path}.url`, cc.url, 'fragments are not permitted in the URL'));
      if (u.search !== '') errors.push(fieldError.invalid(`${path}.url`, cc.url, 'query parameters are not permitted in the URL'));
    }
  } else {
    const svc = cc.service!;
    if (!svc.name) errors.push(fieldError.required(`${path}.service.name`, 'service name is required'));
    if (!svc.namespace) errors.push(fieldError.required(`${path}.service.namespace`, 'service namespace is required'));
    if (svc.port !== undefined && (svc.port < 1 || svc.port > 65535)) {
      errors.push(fieldError.invalid(`${path}.service.port`, svc.port, 'port is not valid: must be between 1 and 65535, inclusive'));
    }
    if (svc.path !== undefined && svc.path !== '' && !svc.path.startsWith('/')) {
      errors.push(fieldError.invalid(`${path}.service.path`, svc.path, "must start with a '/'"));
    }
  }
  if (cc.caBundle !== undefined && !/^[A-Za-z0-9+/=\s]*$/.test(cc.caBundle)) {
    errors.push(fieldError.invalid(`${path}.caBundle`, '', 'must be base64 encoded PEM'));
  }
  return errors;
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
  const errors = validateCrd(crd);
  const spec = specOf(crd);
  const oldSpec = specOf(old);
  const immutable = (path: string, a: unknown, b: unknown): void => {
    if (a !== b) errors.push(fieldError.invalid(path, a ?? '', 'field is immutable'));
  };
  immutable('spec.scope', spec.scope, oldSpec.scope);
  immutable('spec.group', spec.group, oldSpec.group);
  immutable('spec.names.plural', spec.names?.plural, oldSpec.names?.plural);
  if (isConditionTrue(old, 'Established')) immutable('spec.names.kind', spec.names?.kind, oldSpec.names?.kind);
  return errors;
}

/** ValidateUpdateCustomResourceDefinitionStatus: accepted names well formed, stored versions in the spec. */
export function validateCrdStatus(crd: CustomResourceDefinition): FieldError[] {
  const accepted = crd.status?.acceptedNames;
  return [...(isRecord(accepted) ? validateNames(accepted, 'status.acceptedNames', false) : []), ...validateStoredVersions(crd)];
}
