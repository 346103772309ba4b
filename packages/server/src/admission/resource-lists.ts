/**
 * Resource lists (`{cpu: "100m", memory: "1Gi"}`) as kube's quota and limit helpers handle them: parsed,
 * summed, maxed, and printed `cpu=100m,memory=1Gi` with names in order.
 */
import { addQuantities, compareQuantities, formatQuantity, parseQuantity, type Quantity } from '../meta/quantity.js';
import { asObject } from './object-access.js';

/** Quantities by resource name. */
export type ResourceList = Map<string, Quantity>;

/** The parseable quantities of a JSON resource list (others are left out: validation reports them). */
export function resourceListOf(value: unknown): ResourceList {
  const out: ResourceList = new Map();
  for (const [name, v] of Object.entries(asObject(value) ?? {})) {
    const q = parseQuantity(v);
    if (q !== undefined) out.set(name, q);
  }
  return out;
}

/** a + b for every name of either. */
export function addLists(a: ResourceList, b: ResourceList): ResourceList {
  const out = new Map(a);
  for (const [name, q] of b) {
    const cur = out.get(name);
    out.set(name, cur === undefined ? q : addQuantities(cur, q));
  }
  return out;
}

/** The larger of a and b for every name of either. */
export function maxLists(a: ResourceList, b: ResourceList): ResourceList {
  const out = new Map(a);
  for (const [name, q] of b) {
    const cur = out.get(name);
    if (cur === undefined || compareQuantities(q, cur) > 0) out.set(name, q);
  }
  return out;
}

/** `name=quantity` pairs joined by `,`, names in order (kube's prettyPrint). */
export function printList(list: ResourceList): string {
  return [...list.keys()].sort().map((name) => `${name}=${formatQuantity(list.get(name)!)}`).join(',');
}

/** A resource list as JSON, names in order and quantities in canonical form. */
export function listToJson(list: ResourceList): Record<string, string> {
  return Object.fromEntries([...list.keys()].sort().map((name) => [name, formatQuantity(list.get(name)!)]));
}
