/**
 * Which objects a list, watch or deletecollection selects: a label selector and a field selector over
 * `metadata.name`, `metadata.namespace` and the fields the resource's strategy makes selectable (kube's
 * SelectionPredicate).
 */
import { badRequest, fail, ok, type KubeObject, type Result } from '@svc-apiserver/api';
import { matchesFields, parseFieldSelector, type FieldSelector } from '@svc-apiserver/api/field-selector';
import { matchesLabels, parseLabelSelector, type LabelSelector } from '@svc-apiserver/api/label-selector';
import type { StoredObject } from '../storage/watch-cache/stored-object.js';
import type { ResourceDef } from './resource-def.js';

/** A parsed selection. */
export interface Selection {
  readonly labels: LabelSelector;
  readonly fields: FieldSelector;
  /** True when nothing is filtered. */
  readonly everything: boolean;
}

/** Selects every object. */
export const selectEverything: Selection = { labels: { requirements: [] }, fields: { requirements: [] }, everything: true };

/** The field set of an object: name, namespace and the strategy's selectable fields. */
export function objectFields(def: ResourceDef, object: KubeObject): Record<string, string> {
  const fields: Record<string, string> = { 'metadata.name': object.metadata?.name ?? '' };
  if (def.namespaced) fields['metadata.namespace'] = object.metadata?.namespace ?? '';
  return { ...fields, ...(def.strategy.selectableFields?.(object) ?? {}) };
}

/** Parses `labelSelector` and `fieldSelector`: 400 BadRequest for malformed selectors or unsupported field labels. */
export function parseSelection(def: ResourceDef, labelSelector: string | null, fieldSelector: string | null): Result<Selection> {
  const labels = parseLabelSelector(labelSelector ?? '');
  if (!labels.ok) return fail(badRequest(labels.error));
  const fields = parseFieldSelector(fieldSelector ?? '');
  if (!fields.ok) return fail(badRequest(fields.error));
  const supported = new Set(['metadata.name', ...(def.namespaced ? ['metadata.namespace'] : [])]);
  const probe = def.strategy.selectableFields?.({}) ?? {};
  for (const key of Object.keys(probe)) supported.add(key);
  for (const r of fields.value.requirements) {
    if (!supported.has(r.field)) return fail(badRequest(`field label not supported: ${r.field}`));
  }
  return ok({
      labels: labels.value,
      fields: fields.value,
      everything: labels.value.requirements.length === 0 && fields.value.requirements.length === 0,
    });
}

/** True when the selection selects the object. */
export function selects(def: ResourceDef, selection: Selection, object: KubeObject): boolean {
  if (selection.everything) return true;
  return matchesLabels(selection.labels, object.metadata?.labels) && matchesFields(selection.fields, objectFields(def, object));
}

/** What a selection reads of an object, computed once per stored object version (kube's cached GetAttrs). */
interface SelectableAttributes {
  readonly labels: Readonly<Record<string, string>> | undefined;
  readonly fields: Readonly<Record<string, string>>;
}

/** True when a selection reads nothing but the name and namespace, which an object's storage key holds. */
function selectsByKeyOnly(selection: Selection): boolean {
  if (selection.labels.requirements.length > 0) return false;
  for (const r of selection.fields.requirements) if (r.field !== 'metadata.name' && r.field !== 'metadata.namespace') return false;
  return true;
}

/** The name and namespace fields of a stored object, read from its key (`<prefix><namespace>/<name>`). */
function keyFields(def: ResourceDef, key: string): Record<string, string> | undefined {
  if (!key.startsWith(def.keyPrefix)) return undefined;
  const rest = key.slice(def.keyPrefix.length);
  if (!def.namespaced) return { 'metadata.name': rest };
  const slash = rest.indexOf('/');
  return slash < 0 ? undefined : { 'metadata.name': rest.slice(slash + 1), 'metadata.namespace': rest.slice(0, slash) };
}

/** True when the selection selects a stored object; its labels and fields are kept on the object for next time. */
export function selectsStored(def: ResourceDef, selection: Selection, stored: StoredObject): boolean {
  if (selection.everything) return true;
  if (stored.memo === undefined && selectsByKeyOnly(selection)) {
    // A selection by name or namespace (an in-process informer of one object) decodes nothing it does not select.
    const fields = keyFields(def, stored.key);
    if (fields !== undefined) return matchesFields(selection.fields, fields);
  }
  let attrs = stored.memo as SelectableAttributes | undefined;
  if (attrs === undefined) {
    const object = stored.parsed();
    attrs = { labels: object.metadata?.labels, fields: objectFields(def, object) };
    stored.memo = attrs;
  }
  return matchesLabels(selection.labels, attrs.labels) && matchesFields(selection.fields, attrs.fields);
}
