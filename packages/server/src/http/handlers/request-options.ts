/**
 * Query parameters and body checks shared by the verb handlers: `dryRun`, `fieldValidation`, `fieldManager`,
 * `force`, the body's kind and apiVersion, name and namespace agreeing with the URL (kube-apiserver's
 * handlers/rest.go and create.go checks). Invalid options are 422 Invalid on `CreateOptions`, `UpdateOptions`,
 * `PatchOptions` or `DeleteOptions` of the meta group, listing every problem, as kube's ValidateXOptions do.
 */
import {
  apiVersionOf, badRequest, fail, fieldError, invalid, namesFor, ok, type FieldError, type KubeObject, type Names, type Result,
  type Status,
} from '@svc-apiserver/api';
import type { RequestContext } from '../context.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { addWarning } from '../response-writer.js';

/** The kinds of the write options objects. */
export type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions';

/**
 * A boolean query parameter as apimachinery's parameter codec converts it (runtime.Convert_Slice_string_To_bool and
 * its pointer form): undefined when absent; false only for `0` or `false` in any case; true for anything else,
 * the empty value (`?watch`) and `True` included. It never fails.
 */
export function boolParameter(query: URLSearchParams, name: string): boolean | undefined {
  const values = query.getAll(name);
  if (values.length === 0) return undefined;
  const first = values[0]!;
  return !(first === '0' || first.toLowerCase() === 'false');
}

const int64Max = 9223372036854775807n;
const int64Min = -9223372036854775808n;

/**
 * An integer query parameter as the parameter codec converts it (Go's strconv.ParseInt in base 10: an optional
 * sign, then digits): undefined when absent; a malformed or out-of-range value is a 400 carrying Go's error text,
 * as kube-apiserver answers it (`strconv.ParseInt: parsing "x": invalid syntax`).
 */
export function int64Parameter(query: URLSearchParams, name: string): Result<number | undefined> {
  const values = query.getAll(name);
  if (values.length === 0) return ok(undefined);
  const text = values[0]!;
  if (!/^[+-]?\d+$/.test(text)) return fail(badRequest(`strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`));
  const big = BigInt(text);
  if (big > int64Max || big < int64Min) return fail(badRequest(`strconv.ParseInt: parsing ${JSON.stringify(text)}: value out of range`));
  return ok(Number(big));
}

/** The list and watch options read from the query (metav1.ListOptions as the parameter codec fills it). */
export interface ListQueryOptions {
  readonly watch: boolean;
  readonly allowWatchBookmarks: boolean;
  /** Absent when not sent (a pointer in kube). */
  readonly sendInitialEvents?: boolean;
  /** 0 when not sent. */
  readonly limit: number;
  /** Absent when not sent. */
  readonly timeoutSeconds?: number;
}

/** ListOptions from the query: booleans and integers converted as apimachinery does; a bad integer is a 400. */
export function parseListQuery(query: URLSearchParams): Result<ListQueryOptions> {
  const limit = int64Parameter(query, 'limit');
  if (!limit.ok) return limit;
  const timeout = int64Parameter(query, 'timeoutSeconds');
  if (!timeout.ok) return timeout;
  const initial = boolParameter(query, 'sendInitialEvents');
  return ok({
    watch: boolParameter(query, 'watch') ?? false,
    allowWatchBookmarks: boolParameter(query, 'allowWatchBookmarks') ?? false,
    limit: limit.value ?? 0,
    ...(initial !== undefined ? { sendInitialEvents: initial } : {}),
    ...(timeout.value !== undefined ? { timeoutSeconds: timeout.value } : {}),
  });
}

/** errors.NewInvalid on an options object: `PatchOptions.meta.svc.io "" is invalid: ...`, 422. */
export function optionsInvalid(names: Names, kind: OptionsKind, errors: readonly FieldError[]): Status {
  const group = names.group('meta');
  return invalid(kind, { group, resource: '' }, '', errors);
}

/** Go's `%#v` of a []string, as kube prints a bad dryRun value. */
function goStrings(values: readonly string[]): string {
  return `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
}

/** ValidateDryRun: every value must be `All`. */
export function dryRunErrors(values: readonly string[]): FieldError[] {
  if (values.every((v) => v === 'All')) return [];
  return [{ type: 'FieldValueNotSupported', field: 'dryRun', detail: `${goStrings(values)}: supported values: "All"` }];
}

/** `dryRun`: absent means a real write, `All` a dry run (the values as sent, for validation). */
export function dryRunValues(query: URLSearchParams): string[] {
  return query.getAll('dryRun');
}

/** `dryRun` alone (deletes read it beside their body): true for `All`; other values are a 422 on `kind`. */
export function parseDryRun(query: URLSearchParams, names: Names, kind: OptionsKind = 'DeleteOptions'): Result<boolean> {
  const values = dryRunValues(query);
  const errors = dryRunErrors(values);
  if (errors.length > 0) return { ok: false, error: optionsInvalid(names, kind, errors) };
  return { ok: true, value: values.length > 0 };
}

/** kube's FieldManagerMaxLength. */
export const fieldManagerMaxLength = 128;

/** ValidateFieldManager: at most 128 bytes, printable characters only. */
function fieldManagerErrors(manager: string): FieldError[] {
  const errors: FieldError[] = [];
  if (Buffer.byteLength(manager) > fieldManagerMaxLength) errors.push(fieldError.tooLong('fieldManager', fieldManagerMaxLength));
  let at = 0;
  for (const ch of manager) {
    if (!isPrintable(ch)) {
      const code = ch.codePointAt(0)!;
      errors.push(fieldError.invalid('fieldManager', manager, `invalid character U+${code.toString(16).toUpperCase().padStart(4, '0')} (at position ${at})`));
    }
    at += Buffer.byteLength(ch);
  }
  return errors;
}

/** unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
function isPrintable(ch: string): boolean {
  return ch === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
}

/**
 * The default field manager of a non-apply write (kube's prefixFromUserAgent): the user agent up to its first `/`,
 * without unprintable characters, cut to 128 bytes (`kubectl/v1.27.0 (linux/amd64) ...` → `kubectl`).
 */
export function managerFromUserAgent(userAgent: string | undefined): string {
  // The last answer is kept: a client sends the same user agent on every request, and this walks it by character.
  if (userAgent === lastUserAgent) return lastManager;
  let out = '';
  for (const ch of (userAgent ?? '').split('/')[0]!) {
    if (!isPrintable(ch)) continue;
    if (Buffer.byteLength(out + ch) > fieldManagerMaxLength) break;
    out += ch;
  }
  lastUserAgent = userAgent;
  lastManager = out;
  return out;
}

let lastUserAgent: string | undefined = '';
let lastManager = '';

/** The field validation level (document 1 §Field validation). */
export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/** The write options of a create, update or patch. */
export interface WriteOptions {
  readonly dryRun: boolean;
  readonly fieldValidation: FieldValidation;
  /** The `fieldManager` parameter, or the default from the user agent (never empty for an apply). */
  readonly fieldManager: string;
  /** `force` (apply only). */
  readonly force: boolean;
}

/**
 * The write options every create, update and patch reads, validated as kube's ValidateCreateOptions,
 * ValidateUpdateOptions and ValidatePatchOptions do (`apply` for the apply patch type: `fieldManager` required;
 * `force` only there).
 */
export function parseWriteOptions(
  query: URLSearchParams, names: Names = namesFor('svc'), kind: Exclude<OptionsKind, 'DeleteOptions'> = 'CreateOptions',
  userAgent?: string, apply = false,
): Result<WriteOptions> {
  const errors: FieldError[] = [];
  const manager = query.get('fieldManager') ?? '';
  const forceText = query.get('force');
  if (kind === 'PatchOptions') {
    if (!apply && forceText !== null) errors.push(fieldError.forbidden('force', 'may not be specified for non-apply patch'));
    if (apply && manager === '') errors.push(fieldError.required('fieldManager', 'is required for apply patch'));
  }
  errors.push(...fieldManagerErrors(manager));
  const dryRun = dryRunValues(query);
  errors.push(...dryRunErrors(dryRun));
  const v = query.get('fieldValidation') ?? '';
  if (v !== '' && v !== 'Ignore' && v !== 'Warn' && v !== 'Strict') {
    errors.push(fieldError.notSupported('fieldValidation', v, ['', 'Ignore', 'Strict', 'Warn']));
  }
  if (errors.length > 0) return fail(optionsInvalid(names, kind, errors));
  return {
    ok: true,
    value: {
      dryRun: dryRun.length > 0,
      fieldValidation: v === '' ? 'Warn' : (v as FieldValidation),
      fieldManager: manager !== '' ? manager : managerFromUserAgent(userAgent),
      force: boolParameter(query, 'force') ?? false,
    },
  };
}

/** The body's kind and apiVersion must be the endpoint's (absent ones are filled in). */
export function checkTypeMeta(def: ResourceDef, object: KubeObject, kind = def.kind): Result<void> {
  const expected = apiVersionOf(def.group, def.version);
  // kube reads the type meta into strings first: anything else fails that decode.
  for (const field of ['apiVersion', 'kind'] as const) {
    const value: unknown = object[field];
    if (value !== undefined && value !== null && typeof value !== 'string') {
      return fail(badRequest(`couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKind(value)} into Go struct field .${field} of type string`));
    }
  }
  if (object.apiVersion !== undefined && object.apiVersion !== '' && object.apiVersion !== expected) {
    return { ok: false, error: badRequest(`the API version in the data (${String(object.apiVersion)}) does not match the expected API version (${expected})`) };
  }
  if (object.kind !== undefined && object.kind !== '' && object.kind !== kind) {
    return { ok: false, error: badRequest(`the kind in the data (${String(object.kind)}) does not match the expected kind (${kind}) of ${expected}`) };
  }
  object.apiVersion = expected;
  object.kind = kind;
  if (typeof object.metadata !== 'object' || object.metadata === null || Array.isArray(object.metadata)) object.metadata = {};
  return { ok: true, value: undefined };
}

/** EnsureObjectNamespaceMatchesRequestNamespace: fill an empty namespace, clear it for cluster scope, 400 on mismatch. */
export function reconcileNamespace(def: ResourceDef, object: KubeObject, requestNamespace: string): Result<void> {
  const meta = (object.metadata ??= {});
  const ns = def.namespaced ? requestNamespace : '';
  const own = meta.namespace ?? '';
  if (own === ns) return { ok: true, value: undefined };
  if (own === '') meta.namespace = ns;
  else if (ns === '') delete meta.namespace;
  else return { ok: false, error: badRequest('the namespace of the provided object does not match the namespace sent on the request') };
  if (meta.namespace === '') delete meta.namespace;
  return { ok: true, value: undefined };
}

/** What encoding/json calls a JSON value in its type errors. */
function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'string' ? 'string' : 'number';
}

/** checkName: the body's name and namespace must be the URL's (update, patch). */
export function checkNameMatches(object: KubeObject, name: string, namespace: string): Result<void> {
  // A name or namespace that is no string fails kube's decode into ObjectMeta before any comparison.
  for (const field of ['name', 'namespace'] as const) {
    const value: unknown = object.metadata?.[field];
    if (value !== undefined && value !== null && typeof value !== 'string') {
      return fail(badRequest(`json: cannot unmarshal ${jsonKind(value)} into Go struct field ObjectMeta.metadata.${field} of type string`));
    }
  }
  const own = object.metadata?.name ?? '';
  if (own !== name) {
    return { ok: false, error: badRequest(`the name of the object (${own}) does not match the name on the URL (${name})`) };
  }
  const ownNs = object.metadata?.namespace ?? '';
  if (namespace !== '' && ownNs !== '' && ownNs !== namespace) {
    return { ok: false, error: badRequest(`the namespace of the object (${ownNs}) does not match the namespace on the request (${namespace})`) };
  }
  return { ok: true, value: undefined };
}

/** The namespace a request is about: the URL's for namespaced resources, `''` otherwise. */
export function requestNamespace(ctx: RequestContext, def: ResourceDef): string {
  return def.namespaced ? ctx.info.namespace : '';
}

/** Writes a warning header per strategy warning. */
export function sendWarnings(ctx: RequestContext, warnings: readonly string[]): void {
  for (const w of warnings) addWarning(ctx, w);
}
