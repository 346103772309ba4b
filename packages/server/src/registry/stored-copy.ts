/**
 * Private copies of stored objects for in-process callers (a write's current state, an informer's event), as
 * kube's cacher hands out deep copies of its decoded objects: a large object is decoded in slices of the event
 * loop's turns (limits/json-slices.ts), so that one copy of a hundred thousand keys never holds other clients.
 */
import type { KubeObject } from '@svc-apiserver/api';
import type { StoredObject } from '../storage/watch-cache/stored-object.js';
import { parseJsonSteps } from '../limits/json-slices.js';
import { largeObjectChars, runStepsYielding } from '../limits/turn-budget.js';

/** True when copying `object` is done in slices ({@link copyStored}). */
export function isLargeStored(object: StoredObject): boolean {
  return object.size >= largeObjectChars;
}

/** A private copy of `object` (the same as `object.copy()`), decoded in slices when it is large. */
export async function copyStored(object: StoredObject): Promise<KubeObject> {
  if (!isLargeStored(object)) return object.copy();
  const { text, finish } = object.decodable();
  const parsed = await runStepsYielding(parseJsonSteps(text));
  // Stored text was written by JSON.stringify: failing to read it back is a bug, not a client's error.
  if (!parsed.ok) throw new Error(`stored object ${object.key} is not JSON: ${parsed.message}`);
  return finish(parsed.value as KubeObject);
}
