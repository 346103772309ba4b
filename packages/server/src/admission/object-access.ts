/**
 * Reading and writing the parts of API objects plugins look at, without trusting their shape: an object that
 * reached admission passed decoding, not validation, so any field may hold anything. Readers answer empty values
 * for fields of the wrong type; writers create the objects on the way.
 */
import type { KubeObject } from '@svc-apiserver/api';
import { record } from '../registry/conversion/resource-conversion.js';
import { child } from '../registry/resources/pod-spec.js';

/** A JSON object. */
export type Json = Record<string, unknown>;

/** The value as a JSON object, or undefined. */
export const asObject: (value: unknown) => Json | undefined = record;

/** The JSON objects of a list (other entries are skipped). */
export function objectsOf(value: unknown): Json[] {
  return Array.isArray(value) ? value.flatMap((v) => (asObject(v) === undefined ? [] : [v as Json])) : [];
}

/** A string field, or `''`. */
export function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A map of strings (labels, annotations, selectors); entries of other types are skipped. */
export function stringMap(value: unknown): Record<string, string> {
  const o = asObject(value);
  if (o === undefined) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(o)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** The object at `key` of `parent`, created (replacing a value of another type) when missing. */
export const childObject: (parent: Json, key: string) => Json = child;

/** `object.spec` for reading ({} when absent). */
export function specOf(object: KubeObject | undefined): Json {
  return asObject(object?.['spec']) ?? {};
}

/** The labels of an object. */
export function labelsOf(object: KubeObject | undefined): Record<string, string> {
  return stringMap(object?.metadata?.labels);
}

/** The annotations of an object. */
export function annotationsOf(object: KubeObject | undefined): Record<string, string> {
  return stringMap(object?.metadata?.annotations);
}

/** Which list of a pod spec a container is in. */
export type ContainerList = 'initContainers' | 'containers' | 'ephemeralContainers';

/** A container with where it is. */
export interface ContainerAt {
  readonly container: Json;
  readonly list: ContainerList;
  readonly index: number;
}

/**
 * The containers of a pod spec in kube's visiting order (podutil.VisitContainers): init containers, then
 * containers, then ephemeral containers (unless left out).
 */
export function containersOf(spec: Json, lists: readonly ContainerList[] = ['initContainers', 'containers', 'ephemeralContainers']): ContainerAt[] {
  const out: ContainerAt[] = [];
  for (const list of lists) {
    const items = spec[list];
    if (!Array.isArray(items)) continue;
    items.forEach((c, index) => {
      const container = asObject(c);
      if (container !== undefined) out.push({ container, list, index });
    });
  }
  return out;
}

/** Structural equality of JSON values (apiequality.Semantic.DeepEqual for plain data). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => jsonEqual(v, bb[i]));
  }
  const ao = a as Json;
  const bo = b as Json;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  return ak.length === bk.length && ak.every((k) => jsonEqual(ao[k], bo[k]));
}

/** Replaces the contents of `target` with those of `source`, keeping `target`'s identity. */
export function replaceContents(target: Json, source: Json): void {
  for (const k of Object.keys(target)) delete target[k];
  Object.assign(target, source);
}
