/**
 * Kubernetes' list library (document 3 §Expression language; k8s.io/apiserver/pkg/cel/library lists.go):
 * `isSorted`, `sum`, `min`, `max` over lists of comparable (summable) values, and `indexOf`/`lastIndexOf` by equality.
 */
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { celError, type CelLibrary, type CelOverload } from './library.js';
import { celEquals, durationNanos, durationOf } from './values.js';

const comparableTypes = ['int', 'uint', 'double', 'bool', 'string', 'bytes', 'google.protobuf.Duration', 'google.protobuf.Timestamp'] as const;
const summableTypes = ['int', 'uint', 'double', 'google.protobuf.Duration'] as const;

/** The order of two values of one comparable type (negative, zero, positive). */
export function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (a instanceof UnsignedInt && b instanceof UnsignedInt) return compareValues(a.value, b.value);
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(Buffer.from(a), Buffer.from(b));
  if (a instanceof Duration && b instanceof Duration) return compareValues(durationNanos(a), durationNanos(b));
  if (a instanceof Date && b instanceof Date) return compareValues(a.getTime(), b.getTime());
  throw celError('no such overload');
}

function pick(list: readonly unknown[], op: 'min' | 'max'): unknown {
  if (list.length === 0) throw celError(`${op}(list) called on empty list`);
  let best = list[0];
  for (const x of list.slice(1)) {
    const c = compareValues(x, best);
    if (op === 'min' ? c < 0 : c > 0) best = x;
  }
  return best;
}

function sum(list: readonly unknown[], type: (typeof summableTypes)[number]): unknown {
  switch (type) {
    case 'int': {
      let total = 0n;
      for (const x of list) {
        total += x as bigint;
        if (total !== BigInt.asIntN(64, total)) throw celError('integer overflow');
      }
      return total;
    }
    case 'uint': {
      let total = 0n;
      for (const x of list) total += (x as UnsignedInt).value;
      if (total !== BigInt.asUintN(64, total)) throw celError('unsigned integer overflow');
      return new UnsignedInt(total);
    }
    case 'double': return list.reduce<number>((a, x) => a + (x as number), 0);
    case 'google.protobuf.Duration': return durationOf(list.reduce<bigint>((a, x) => a + durationNanos(x as Duration), 0n));
  }
}

const overloads: CelOverload[] = [];
for (const t of comparableTypes) {
  overloads.push(
    {
      signature: `list<${t}>.isSorted(): bool`,
      impl: (l: readonly unknown[]) => l.every((x, i) => i === 0 || compareValues(l[i - 1], x) <= 0),
    },
    { signature: `list<${t}>.min(): ${t}`, impl: (l: readonly unknown[]) => pick(l, 'min') },
    { signature: `list<${t}>.max(): ${t}`, impl: (l: readonly unknown[]) => pick(l, 'max') },
  );
}
for (const t of summableTypes) overloads.push({ signature: `list<${t}>.sum(): ${t}`, impl: (l: readonly unknown[]) => sum(l, t) });
overloads.push(
  { signature: 'list<A>.indexOf(A): int', impl: (l: readonly unknown[], v: unknown) => BigInt(l.findIndex((x) => celEquals(x, v))) },
  {
    signature: 'list<A>.lastIndexOf(A): int',
    impl: (l: readonly unknown[], v: unknown) => {
      for (let i = l.length - 1; i >= 0; i--) if (celEquals(l[i], v)) return BigInt(i);
      return -1n;
    },
  },
);

/** The list library. */
export const listsLibrary: CelLibrary = { name: 'lists', types: [], overloads };
