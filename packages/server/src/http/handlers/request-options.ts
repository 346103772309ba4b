/**
 * Query parameters and body checks shared by the verb handlers: `dryRun`, `fieldValidation`, the body's kind and
 * apiVersion, name and namespace agreeing with the URL (kube-apiserver's handlers/rest.go and create.go checks).
 */
import { apiVersionOf, badRequest, type KubeObject } from '@svc-apiserver/api';
import type { Outcome, RequestContext } from '../context.js';
import type { ResourceDef } from '../../registry/resource-def.js';

/** `dryRun`: absent or empty means a real write, `All` a dry run; anything else is a 400. */
export function parseDryRun(query: URLSearchParams): Outcome<boolean> {
  const values = query.getAll('dryRun').filter((v) => v !== '');
  for (const v of values) {
    if (v !== 'All') return { ok: false, status: badRequest(`dryRun: Unsupported value: ${JSON.stringify(v)}: supported values: "All"`) };
  }
  return { ok: true, value: values.length > 0 };
}

/** The field validation level (document 1 §Field validation). */
export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/** `fieldValidation`: Ignore, Warn (default) or Strict. */
export function parseFieldValidation(query: URLSearchParams): Outcome<FieldValidation> {
  const v = query.get('fieldValidation') ?? '';
  if (v === '') return { ok: true, value: 'Warn' };
  if (v === 'Ignore' || v === 'Warn' || v === 'Strict') return { ok: true, value: v };
  return { ok: false, status: badRequest(`fieldValidation must be one of "Ignore", "Warn" or "Strict", got ${JSON.stringify(v)}`) };
}

/** The write options every create, update and patch reads: `dryRun` and `fieldValidation`. */
export function parseWriteOptions(query: URLSearchParams): Outcome<{ dryRun: boolean; fieldValidation: FieldValidation }> {
  const dryRun = parseDryRun(query);
  if (!dryRun.ok) return dryRun;
  const fieldValidation = parseFieldValidation(query);
  if (!fieldValidation.ok) return fieldValidation;
  return { ok: true, value: { dryRun: dryRun.value, fieldValidation: fieldValidation.value } };
}

/** The body's kind and apiVersion must be the endpoint's (absent ones are filled in). */
export function checkTypeMeta(def: ResourceDef, object: KubeObject, kind = def.kind): Outcome<void> {
  const expected = apiVersionOf(def.group, def.version);
  if (object.apiVersion !== undefined && object.apiVersion !== '' && object.apiVersion !== expected) {
    return { ok: false, status: badRequest(`the API version in the data (${String(object.apiVersion)}) does not match the expected API version (${expected})`) };
  }
  if (object.kind !== undefined && object.kind !== '' && object.kind !== kind) {
    return { ok: false, status: badRequest(`the kind in the data (${String(object.kind)}) does not match the expected kind (${kind}) of ${expected}`) };
  }
  object.apiVersion = expected;
  object.kind = kind;
  if (typeof object.metadata !== 'object' || object.metadata === null || Array.isArray(object.metadata)) object.metadata = {};
  return { ok: true, value: undefined };
}

/** EnsureObjectNamespaceMatchesRequestNamespace: fill an empty namespace, clear it for cluster scope, 400 on mismatch. */
export function reconcileNamespace(def: ResourceDef, object: KubeObject, requestNamespace: string): Outcome<void> {
  const meta = (object.metadata ??= {});
  const ns = def.namespaced ? requestNamespace : '';
  const own = meta.namespace ?? '';
  if (own === ns) return { ok: true, value: undefined };
  if (own === '') meta.namespace = ns;
  else if (ns === '') delete meta.namespace;
  else return { ok: false, status: badRequest('the namespace of the provided object does not match the namespace sent on the request') };
  if (meta.namespace === '') delete meta.namespace;
  return { ok: true, value: undefined };
}

/** checkName: the body's name and namespace must be the URL's (update, patch). */
export function checkNameMatches(object: KubeObject, name: string, namespace: string): Outcome<void> {
  const own = object.metadata?.name ?? '';
  if (own !== name) {
    return { ok: false, status: badRequest(`the name of the object (${own}) does not match the name on the URL (${name})`) };
  }
  const ownNs = object.metadata?.namespace ?? '';
  if (namespace !== '' && ownNs !== '' && ownNs !== namespace) {
    return { ok: false, status: badRequest(`the namespace of the object (${ownNs}) does not match the namespace on the request (${namespace})`) };
  }
  return { ok: true, value: undefined };
}

/** The namespace a request is about: the URL's for namespaced resources, `''` otherwise. */
export function requestNamespace(ctx: RequestContext, def: ResourceDef): string {
  return def.namespaced ? ctx.info.namespace : '';
}

/** Writes a warning header per strategy warning. */
export function sendWarnings(ctx: RequestContext, warnings: readonly string[]): void {
  for (const w of warnings) ctx.warn(w);
}
