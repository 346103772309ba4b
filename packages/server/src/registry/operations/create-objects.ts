/**
 * Creates of many objects at once, for the writers of the objects every server makes at start: each object goes
 * through the steps of {@link createObject}, and their storage writes are then issued together, in one turn of the
 * event loop, so that the store commits them in one transaction (the SQLite store commits every write submitted in
 * one turn together; etcd's backend batches concurrent transactions into one commit). Each object keeps its own
 * result: one refused by admission or already stored does not stop the others.
 */
import type { KubeObject, Result } from '@svc-apiserver/api';
import type { Registry } from '../registry.js';
import type { ResourceDef } from '../resource-def.js';
import type { OperationContext } from './admission-attributes.js';
import { prepareCreate, writeCreate } from './create-object.js';
import { trackForContext } from './field-management.js';

/** One object to create, with its resource. */
export interface CreateItem {
  readonly def: ResourceDef;
  readonly object: KubeObject;
}

/** Creates the objects; the results are in the order of `items`. */
export async function createObjects(registry: Registry, items: readonly CreateItem[], ctx: OperationContext): Promise<Result<KubeObject>[]> {
  const objects = await Promise.all(items.map((item) => trackForContext(item.def, '', undefined, item.object, ctx)));
  const prepared = await Promise.all(items.map((item, i) => prepareCreate(registry, item.def, objects[i]!, ctx)));
  return Promise.all(items.map((item, i) => {
    const p = prepared[i]!;
    return p.ok ? writeCreate(registry, item.def, objects[i]!, p.value, ctx) : p;
  }));
}
