/**
 * Reading and writing fields of decoded objects the way kube's typed code sees them: defaults set only where a
 * field is unset, child objects made on demand, semantic equality (key order ignored, absent equals empty) and the
 * `field is immutable` error ValidateImmutableField gives.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { record } from '../conversion/resource-conversion.js';
import { semanticEqual } from './semantic-equal.js';
import type { Json } from './field-checks.js';

/** Sets `object[key]` to `value` when it is unset. */
export function setDefault(object: Json, key: string, value: unknown): void {
  if (object[key] === undefined) object[key] = value;
}

/** The child object at `key`, created when unset. */
export function child(object: Json, key: string): Json {
  const existing = record(object[key]);
  if (existing !== undefined) return existing;
  const made: Json = {};
  object[key] = made;
  return made;
}

/** True when two JSON values are semantically equal (key order ignored, absent equals empty; see semantic-equal.ts). */
export function sameJson(a: unknown, b: unknown): boolean {
  return semanticEqual(a, b);
}

/** The `field is immutable` error of a field that changed. */
export function immutable(path: string, now: unknown, before: unknown): FieldError[] {
  return sameJson(now, before) ? [] : [fieldError.invalid(path, now, 'field is immutable')];
}

/** The object's `spec` as a record (created when missing). */
export function specOf(object: KubeObject): Json {
  return child(object as Json, 'spec');
}
