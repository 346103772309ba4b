/**
 * The decode-time schema step: what kube's decoder fails — wrong JSON types, malformed quantities, base64 and
 * timestamps — answered as kube-apiserver answers a body it cannot decode (400 BadRequest, `<Kind> in version "v1"
 * cannot be handled as a <Kind>: <the Go decoder's error>`); values the schema's enums lack (422 Invalid); and
 * unknown and duplicate fields handled by the field validation level (document 1 §Field validation) — ignored
 * (Ignore), one warning each (Warn), or a 400 naming all of them (Strict). A fatal error wins over them: it alone is
 * reported, with no unknown-field information. Unknown fields never reach storage.
 */
import { badRequest, fail, invalid, type FieldError, type KubeObject, ok, type Result } from '@svc-apiserver/api';
import type { RequestContext } from '../context.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import type { FieldValidation } from './request-options.js';
import type { SchemaValidation } from '../../schema/catalog.js';
import { addWarning } from '../response-writer.js';

/** Splits `spec.containers[0].bar` into `['spec', 'containers', 0, 'bar']`. */
export function parseFieldPath(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]|\[([^\]]*)\]/g)) {
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else if (m[3] !== undefined) out.push(m[3]);
  }
  return out;
}

/** Removes the field at `path` from `object`, if it is there. */
export function dropField(object: unknown, path: string): void {
  const parts = parseFieldPath(path);
  let cur: unknown = object;
  for (let i = 0; i < parts.length - 1; i++) {
    if (typeof cur !== 'object' || cur === null) return;
    cur = (cur as Record<string | number, unknown>)[parts[i]!];
  }
  const last = parts[parts.length - 1];
  if (typeof cur === 'object' && cur !== null && last !== undefined && !Array.isArray(cur)) delete (cur as Record<string, unknown>)[String(last)];
}

/**
 * The strict decoding errors of a body: duplicates (as the decoder worded them; YAML ones as go-yaml's one
 * combined error) followed by unknown fields.
 */
export function strictDecodingErrors(duplicates: readonly string[], unknown: readonly string[]): string[] {
  const yaml = duplicates.length > 0 && duplicates[0]!.startsWith('line ');
  const dup = yaml ? [`error converting YAML to JSON: yaml: unmarshal errors:\n  ${duplicates.join('\n  ')}`] : [...duplicates];
  return [...dup, ...unknown.map((f) => `unknown field "${f}"`)];
}

/**
 * Strict decoding problems by level: a 400 (Strict; `prefix` is the decoder's wording, the apply patcher's being
 * `error strict decoding YAML: `), the warnings to send (Warn), or nothing (Ignore).
 */
export function strictProblems(
  level: FieldValidation, duplicates: readonly string[], unknown: readonly string[], prefix = 'strict decoding error: ',
): Result<readonly string[]> {
  if (duplicates.length === 0 && unknown.length === 0) return ok([]);
  if (level === 'Strict') return fail(badRequest(`${prefix}${strictDecodingErrors(duplicates, unknown).join(', ')}`));
  if (level === 'Warn') return ok([...duplicates, ...unknown.map((f) => `unknown field "${f}"`)]);
  return ok([]);
}

/** Reports strict decoding problems by level: a 400 (Strict), one warning each (Warn), or nothing (Ignore). */
export function reportStrictProblems(ctx: RequestContext, level: FieldValidation, duplicates: readonly string[], unknown: readonly string[]): Result<void> {
  return warned(ctx, strictProblems(level, duplicates, unknown));
}

/**
 * A schema error kube's decoder would have met (a JSON type error, or the error of a quantity, base64 or timestamp
 * that does not parse, which the schema validator reports as Invalid), as opposed to a value its enum lacks.
 */
function isDecodeError(e: FieldError): boolean {
  return e.type === 'FieldValueTypeInvalid' || e.type === 'FieldValueInvalid';
}

/**
 * Validates a decoded object against the resource's schema at a field validation level, dropping unknown fields:
 * the warnings to send, or the failure.
 */
export function schemaProblems(
  registry: Registry, def: ResourceDef, object: KubeObject, level: FieldValidation, duplicates: readonly string[] = [],
): Result<readonly string[]> {
  if (def.custom !== undefined) {
    // A custom object is pruned and defaulted as decoded; its schema's other checks are the strategy's (422).
    const problems = strictProblems(level, duplicates, def.custom.prune(object));
    if (problems.ok) def.custom.applyDefaults(object);
    return problems;
  }
  const result = registry.validator.validate(def.schemaName, object);
  const decodeError = result.errors.find(isDecodeError);
  if (decodeError !== undefined) {
    return fail(badRequest(`${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: ${decodeError.detail}`));
  }
  if (result.errors.length > 0) {
    return fail(invalid(def.kind, def.qualified, object.metadata?.name ?? '', [...result.errors]));
  }
  const problems = strictProblems(level, duplicates, result.unknownFields);
  if (!problems.ok) return problems;
  for (const f of result.unknownFields) dropField(object, f);
  return problems;
}

/**
 * The decode-time schema result of an object without changing it: the catalog's validation for built-in resources,
 * the fields pruning would drop for custom resources (whose type errors are validation's, not decoding's).
 */
export function schemaValidation(registry: Registry, def: ResourceDef, object: unknown): SchemaValidation {
  if (def.custom !== undefined) return { errors: [], unknownFields: def.custom.prune(structuredClone(object)) };
  return registry.validator.validate(def.schemaName, object);
}

/** Validates a decoded object against the resource's schema at a field validation level, warning on the request. */
export function checkSchema(
  ctx: RequestContext, registry: Registry, def: ResourceDef, object: KubeObject, level: FieldValidation,
  duplicates: readonly string[] = [],
): Result<void> {
  return warned(ctx, schemaProblems(registry, def, object, level, duplicates));
}

/** Sends the warnings of a check on the request. */
function warned(ctx: RequestContext, problems: Result<readonly string[]>): Result<void> {
  if (!problems.ok) return problems;
  for (const w of problems.value) addWarning(ctx, w);
  return ok(undefined);
}
