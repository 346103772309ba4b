/**
 * A range's allocation record in storage (kube's RangeAllocation under `/registry/ranges/serviceips` and
 * `/registry/ranges/servicenodeports`): one bit per offset in the range, changed only by compare-and-swap on the
 * key's mod revision, so several servers on one store never hand out the same address or port.
 *
 * Stored as JSON `{"range": "<cidr or ports>", "data": "<base64 bitmap>"}`; bit `i` (byte `i >> 3`, bit `i & 7`) is
 * offset `i` of the range. A record written for another range (the flag changed) is started afresh; the repair
 * pass marks what the stored Services hold again.
 */
import type { Backend } from '../../storage/backend.js';

/** Where the records live (kube's keys). */
export const serviceIpsKey = '/registry/ranges/serviceips';
export const serviceNodePortsKey = '/registry/ranges/servicenodeports';

/** A mutable copy of a record's bits. */
export interface Bitmap {
  readonly size: number;
  has(offset: number): boolean;
  set(offset: number): void;
  clear(offset: number): void;
}

/** A change to apply: it returns its result and whether the bits should be written. */
export type RangeChange<T> = (bits: Bitmap) => { readonly write: boolean; readonly result: T };

/** One range's stored record. */
export interface RangeAllocation {
  readonly key: string;
  /** Runs `change` on the current bits and writes them by compare-and-swap, again on a conflict. */
  transact<T>(change: RangeChange<T>): Promise<T>;
  /** The current bits (a copy). */
  read(): Promise<Bitmap>;
}

function bitmap(size: number, bytes: Uint8Array): Bitmap & { bytes: Uint8Array } {
  return {
    size, bytes,
    has: (i) => i >= 0 && i < size && (bytes[i >> 3]! & (1 << (i & 7))) !== 0,
    set(i) { if (i >= 0 && i < size) bytes[i >> 3]! |= 1 << (i & 7); },
    clear(i) { if (i >= 0 && i < size) bytes[i >> 3]! &= ~(1 << (i & 7)); },
  };
}

function decode(value: string, range: string, size: number): Bitmap & { bytes: Uint8Array } {
  const bytes = new Uint8Array(Math.ceil(size / 8));
  try {
    const parsed = JSON.parse(value) as { range?: unknown; data?: unknown };
    if (parsed.range === range && typeof parsed.data === 'string') bytes.set(Buffer.from(parsed.data, 'base64').subarray(0, bytes.length));
  } catch {
    // An unreadable record is replaced; the repair pass restores what the Services hold.
  }
  return bitmap(size, bytes);
}

/** The record of `range` (its text, e.g. `10.0.0.0/24` or `30000-32767`) of `size` offsets at `key`. */
export function rangeAllocation(backend: Backend, key: string, range: string, size: number): RangeAllocation {
  const current = async (): Promise<{ bits: Bitmap & { bytes: Uint8Array }; modRevision?: number }> => {
    const got = await backend.get(key);
    // A plain read at the current revision cannot be compacted or in the future.
    if (!got.ok) throw new Error(`reading ${key}: ${got.error.code}`);
    const kv = got.value.kv;
    return kv === undefined ? { bits: bitmap(size, new Uint8Array(Math.ceil(size / 8))) } : { bits: decode(kv.value, range, size), modRevision: kv.modRevision };
  };
  return {
    key,
    async read() {
      return (await current()).bits;
    },
    async transact(change) {
      for (;;) {
        const { bits, modRevision } = await current();
        const { write, result } = change(bits);
        if (!write) return result;
        const value = JSON.stringify({ range, data: Buffer.from(bits.bytes).toString('base64') });
        const written = modRevision === undefined ? await backend.create(key, value) : await backend.update(key, value, modRevision);
        // Another server changed the record since it was read: read it again and redo the change.
        if (written.ok) return result;
      }
    },
  };
}
