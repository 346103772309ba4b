/**
 * jsonEquivalent (the api package's) in steps (see turn-budget.ts): whether two JSON values are the same document,
 * key order aside, where comparing a map of a hundred thousand keys whole would hold the event loop for tens of
 * milliseconds. One walk with a stack of the pairs still to compare, with a point to yield after every
 * {@link entriesPerStep} entries, so that no generator is made per nested value.
 */
import { entriesPerStep, type Steps } from './turn-budget.js';

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** True when `a` and `b` are the same JSON document, whatever the order of their keys (jsonEquivalent's rules). */
export function* jsonEquivalentSteps(a: unknown, b: unknown): Steps<boolean> {
  const pending: unknown[] = [a, b];
  let visited = 0;
  while (pending.length > 0) {
    const y = pending.pop();
    const x = pending.pop();
    if (x === y) continue;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) {
        if (++visited % entriesPerStep === 0) yield;
        pending.push(x[i], y[i]);
      }
      continue;
    }
    if (!isMap(x) || !isMap(y)) return false;
    // Keys holding undefined are left out of JSON: they count as absent on both sides.
    let defined = 0;
    for (const k of Object.keys(x)) {
      if (++visited % entriesPerStep === 0) yield;
      const v = x[k];
      if (v === undefined) continue;
      defined++;
      if (!Object.hasOwn(y, k)) return false;
      pending.push(v, y[k]);
    }
    for (const k of Object.keys(y)) {
      if (++visited % entriesPerStep === 0) yield;
      if (y[k] !== undefined) defined--;
    }
    if (defined !== 0) return false;
  }
  return true;
}
