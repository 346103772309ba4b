/**
 * The protobuf wire format as the generated decoders read it: tags, varints, 64-bit numbers as JavaScript numbers
 * (as protobufjs' Long.toNumber gives them), doubles, strings and length-delimited messages, each checked against
 * the end of the message it is in. Malformed input (a length past its message, a varint of more than ten bytes, a
 * wire type the field does not have, groups left open, nesting past the bound) throws {@link DecodeError}, which
 * the codec answers with 400; nothing here recurses on input except through the decoders, whose depth is bounded.
 * Written by hand for the same reason as the writer (wire-writer.ts).
 */
import { maxNestingDepth } from '@svc-apiserver/api';

/** Malformed protobuf. */
export class DecodeError extends Error {}

/**
 * The deepest nesting of messages read: each level of JSON takes at most two levels of messages (a map entry and
 * its value), so anything deeper decodes to JSON deeper than the request limit.
 */
export const maxMessageDepth = 2 * maxNestingDepth + 8;

const twoTo32 = 4294967296;

type Utf8Slicing = Buffer & { utf8Slice?(start: number, end: number): string };

/**
 * UTF-8 text of `buf[from, to)`: Buffer's own slice method where Node has it (half the cost of `toString`, whose
 * argument checks dominate for the short strings of an API object), `toString` elsewhere.
 */
const utf8Slice: (buf: Buffer, from: number, to: number) => string = typeof (Buffer.prototype as Utf8Slicing).utf8Slice === 'function'
  ? (buf, from, to) => (buf as Utf8Slicing).utf8Slice!(from, to)
  : (buf, from, to) => buf.toString('utf8', from, to);

/**
 * Decodes bytes nested in a RawExtension that are themselves a binary envelope, continuing the nesting depth of
 * the message they are in.
 */
export type NestedDecoder = (bytes: Uint8Array, depth: number) => unknown;

/** Strings up to this many bytes go through the cache. */
const cachedStringBytes = 32;
/** Slots of the cache (a power of two). */
const cacheSlots = 4096;
const cachedStrings: (string | undefined)[] = new Array<string | undefined>(cacheSlots);

/**
 * A short string, shared with earlier decodes of the same ASCII bytes (a direct-mapped cache on a hash of the
 * bytes): the strings of an API object repeat across the objects of a list (label keys and values, images,
 * phases, condition types), and sharing one immutable string saves decoding it and the young-generation garbage
 * collections that copying thousands of live copies costs.
 */
function shortString(buf: Buffer, from: number, to: number): string {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) {
    const b = buf[i]!;
    if (b >= 128) return utf8Slice(buf, from, to);
    h = Math.imul(h ^ b, 16777619);
  }
  const slot = (h >>> 0) & (cacheSlots - 1);
  const cached = cachedStrings[slot];
  if (cached !== undefined && cached.length === to - from) {
    let same = true;
    for (let i = 0; i < cached.length; i++) {
      if (cached.charCodeAt(i) !== buf[from + i]) {
        same = false;
        break;
      }
    }
    if (same) return cached;
  }
  const s = utf8Slice(buf, from, to);
  cachedStrings[slot] = s;
  return s;
}

/** Reads protobuf from a buffer. */
export class WireReader {
  pos: number;
  depth = 0;

  /** `nested` decodes an envelope found inside raw JSON fields (the codec's own decode). */
  constructor(readonly buf: Buffer, readonly nested: NestedDecoder, depth = 0) {
    this.pos = 0;
    this.depth = depth;
  }

  /** An unsigned varint of up to 32 bits (tags, lengths, int32 values): higher bits are dropped as Go's uint32 does. */
  varint32(): number {
    const buf = this.buf;
    let b = buf[this.pos++]!;
    if (b < 128) return b;
    let v = b & 127;
    b = buf[this.pos++]!;
    v |= (b & 127) << 7;
    if (b < 128) return v;
    b = buf[this.pos++]!;
    v |= (b & 127) << 14;
    if (b < 128) return v;
    b = buf[this.pos++]!;
    v |= (b & 127) << 21;
    if (b < 128) return v;
    b = buf[this.pos++]!;
    v = (v | ((b & 15) << 28)) >>> 0;
    if (b < 128) return v;
    // Up to five more bytes of a 64-bit varint, ignored.
    for (let i = 0; i < 5; i++) if (buf[this.pos++]! < 128) return v;
    throw new DecodeError('varint longer than ten bytes');
  }

  /** A tag: field number and wire type. */
  tag(): number {
    const b = this.buf[this.pos];
    if (b !== undefined && b < 128) {
      this.pos++;
      return b;
    }
    return this.varint32();
  }

  /** An int32 value (a varint of up to 64 bits, its low 32 bits signed). */
  int32(): number {
    return this.varint32() | 0;
  }

  /** An int64 value as a number: exact below 2^53, as protobufjs' Long.toNumber beyond. */
  int64(): number {
    const buf = this.buf;
    let lo = 0;
    let hi = 0;
    let shift = 0;
    let b: number;
    // The low 28 bits.
    for (; shift < 28; shift += 7) {
      b = buf[this.pos++]!;
      lo |= (b & 127) << shift;
      if (b < 128) return lo >>> 0;
    }
    b = buf[this.pos++]!;
    lo = (lo | ((b & 127) << 28)) >>> 0;
    hi = (b & 127) >> 4;
    if (b >= 128) {
      for (shift = 3; shift < 32; shift += 7) {
        b = buf[this.pos++]!;
        hi |= (b & 127) << shift;
        if (b < 128) break;
      }
      if (b! >= 128) throw new DecodeError('varint longer than ten bytes');
    }
    return (hi | 0) * twoTo32 + lo;
  }

  /** A bool value. */
  bool(): boolean {
    return this.varint32() !== 0;
  }

  /** A double value. */
  double(end: number): number {
    if (this.pos + 8 > end) throw new DecodeError('unexpected end of message');
    const v = this.buf.readDoubleLE(this.pos);
    this.pos += 8;
    return v;
  }

  /** Reads a length and returns the end of the bytes it announces, checked to lie within `end`. */
  sub(end: number): number {
    const length = this.varint32();
    const to = this.pos + length;
    if (to > end || this.pos > end) throw new DecodeError('length beyond the end of the message');
    return to;
  }

  /** Enters a nested message; throws past the depth bound. */
  enter(): void {
    if (++this.depth > maxMessageDepth) throw new DecodeError(`messages nested deeper than ${maxMessageDepth} levels`);
  }

  /** Leaves a message that must end exactly at `end`. */
  leave(end: number): void {
    if (this.pos !== end) throw new DecodeError('unexpected end of message');
    this.depth--;
  }

  /** Checks that a map entry or packed list ended exactly at `end`. */
  done(end: number): void {
    if (this.pos !== end) throw new DecodeError('unexpected end of message');
  }

  /** A string value. */
  string(end: number): string {
    const to = this.sub(end);
    const from = this.pos;
    this.pos = to;
    return to - from <= cachedStringBytes ? shortString(this.buf, from, to) : utf8Slice(this.buf, from, to);
  }

  /** A bytes value as base64 (its JSON form). */
  base64(end: number): string {
    const to = this.sub(end);
    const from = this.pos;
    this.pos = to;
    return this.buf.toString('base64', from, to);
  }

  /**
   * A bytes value holding embedded JSON (RawExtension, FieldsV1, apiextensions JSON), as its JSON value: undefined when empty, an
   * embedded binary envelope decoded by `nested`, the parsed JSON, or the text when it is not JSON.
   */
  json(end: number): unknown {
    const to = this.sub(end);
    const from = this.pos;
    this.pos = to;
    if (to === from) return undefined;
    const buf = this.buf;
    if (to - from >= 4 && buf[from] === 0x6b && buf[from + 1] === 0x38 && buf[from + 2] === 0x73 && buf[from + 3] === 0x00) {
      return this.nested(buf.subarray(from, to), this.depth);
    }
    const text = utf8Slice(buf, from, to);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }

  /** A bytes value, sharing the input's memory. */
  bytes(end: number): Buffer {
    const to = this.sub(end);
    const from = this.pos;
    this.pos = to;
    return this.buf.subarray(from, to);
  }

  /**
   * Skips a field the message does not have. `known` fields reaching here have another wire type than theirs,
   * which is malformed (Go's decoders refuse it too).
   */
  skip(tag: number, end: number, known: readonly number[]): void {
    const field = tag >>> 3;
    if (field === 0) throw new DecodeError('illegal tag 0');
    if (known.includes(field)) throw new DecodeError(`wrong wire type ${tag & 7} for field ${field}`);
    this.skipValue(tag, end);
  }

  private skipValue(tag: number, end: number): void {
    switch (tag & 7) {
      case 0:
        this.int64();
        break;
      case 1:
        this.pos += 8;
        break;
      case 2:
        this.pos = this.sub(end);
        break;
      case 5:
        this.pos += 4;
        break;
      case 3: {
        // A group: skipped to its matching end, nested groups counted rather than recursed into.
        let open = 1;
        while (open > 0) {
          if (this.pos >= end) throw new DecodeError('unterminated group');
          const t = this.tag();
          const type = t & 7;
          if (type === 3) {
            if (++open > maxMessageDepth) throw new DecodeError(`groups nested deeper than ${maxMessageDepth} levels`);
          } else if (type === 4) {
            open--;
          } else {
            this.skipValue(t, end);
          }
        }
        break;
      }
      default:
        throw new DecodeError(`invalid wire type ${tag & 7}`);
    }
    if (this.pos > end) throw new DecodeError('unexpected end of message');
  }
}
