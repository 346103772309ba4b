/**
 * Protobuf bodies for the fuzzer: the binary envelope (`k8s\0` + runtime.Unknown) of a valid object, then cut,
 * flipped, lengthened, re-enveloped with another kind, or replaced by bytes that only start like an envelope.
 */
import type { Random } from './fuzz-random.js';

/** Encodes an object as the server's codec would (undefined for kinds without messages). */
export type ProtobufEncoder = (object: unknown) => Uint8Array | undefined;

/** A varint. */
function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

/** A protobuf body: valid, or broken in one of many ways. */
export function protobufBody(r: Random, valid: Uint8Array | undefined): Buffer {
  const magic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);
  const good = valid === undefined ? Buffer.concat([magic, Buffer.from([0x0a, 0x00])]) : Buffer.from(valid);
  return r.weighted<() => Buffer>([
    [3, () => good],
    [3, () => good.subarray(0, r.int(good.length + 1))],
    [3, () => {
      const b = Buffer.from(good);
      for (let i = r.range(1, 6); i > 0 && b.length > 0; i--) b[r.int(b.length)] = r.int(256);
      return b;
    }],
    [2, () => {
      const b = Buffer.from(good);
      const at = r.range(4, Math.max(4, b.length));
      return Buffer.concat([b.subarray(0, at), Buffer.from([r.int(256), ...varint(r.pick([0, 1, 127, 128, 2 ** 28, 2 ** 31 - 1]))]), b.subarray(at)]);
    }],
    [1, () => Buffer.concat([magic, Buffer.from(Array.from({ length: r.int(200) }, () => r.int(256)))])],
    [1, () => Buffer.from(Array.from({ length: r.int(64) }, () => r.int(256)))],
    [1, () => magic.subarray(0, r.int(5))],
    // A field of length 2^31-1 that is not there.
    [1, () => Buffer.concat([magic, Buffer.from([0x12, ...varint(2 ** 31 - 1), 1, 2, 3])])],
    // Deeply nested length-delimited fields: readers that recurse on unknown groups go deep.
    [1, () => {
      let inner = Buffer.from([0x08, 0x01]);
      for (let i = r.pick([50, 500, 5000]); i > 0; i--) inner = Buffer.concat([Buffer.from([0x1a, ...varint(inner.length)]), inner]);
      return Buffer.concat([magic, Buffer.from([0x12, ...varint(inner.length)]), inner]);
    }],
    // Start-group tags without end (wire type 3).
    [1, () => Buffer.concat([magic, Buffer.from(Array.from({ length: r.pick([10, 1000, 20_000]) }, () => 0x0b))])],
  ])();
}
