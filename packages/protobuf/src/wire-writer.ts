/**
 * The protobuf wire format as the generated encoders write it (packages/server/generated/protobuf-messages.cjs):
 * varints, 64-bit numbers as JavaScript numbers, doubles, strings and length-delimited messages, into one buffer
 * reused from message to message. A message's length is not known before its fields are written, so one byte is
 * reserved for it and the fields are moved up when the length needs more (one memory move per message of 128
 * bytes or more, instead of a sizing pass over every object). Numbers are converted as protobufjs and Go's
 * generated marshallers convert them (negative int32 as ten-byte varints, int64 two's complement). Written by hand:
 * no library writes protobuf from plain objects without a reflection or a message class per type.
 */

/** The first size of the shared buffer; it grows by doubling and is given back when a message made it huge. */
const initialBytes = 64 * 1024;
/** A buffer grown past this is dropped after the message that grew it (a large list), not kept for the process. */
const keptBytes = 4 * 1024 * 1024;
const twoTo32 = 4294967296;

type Utf8Writing = Buffer & { utf8Write?(text: string, offset: number): number };

/**
 * Writes `text` as UTF-8 at `offset` (room checked by the caller); the bytes written. Buffer's own method where
 * Node has it (`write` spends more on its argument checks than on a short string), `write` elsewhere.
 */
const utf8Write: (buf: Buffer, text: string, offset: number) => number = typeof (Buffer.prototype as Utf8Writing).utf8Write === 'function'
  ? (buf, text, offset) => (buf as Utf8Writing).utf8Write!(text, offset)
  : (buf, text, offset) => buf.write(text, offset, 'utf8');

/** Writes protobuf into a growing buffer. One instance serves every encoding (encoders never nest). */
export class WireWriter {
  buf: Buffer = Buffer.allocUnsafe(initialBytes);
  pos = 0;

  /** Starts a new message. */
  reset(): void {
    if (this.buf.length > keptBytes) this.buf = Buffer.allocUnsafe(initialBytes);
    this.pos = 0;
  }

  /** Makes room for `n` more bytes. */
  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** One byte (a tag below 128). */
  byte(b: number): void {
    if (this.pos >= this.buf.length) this.ensure(1);
    this.buf[this.pos++] = b;
  }

  /** Two bytes (a tag of field 16 or more). */
  byte2(b0: number, b1: number): void {
    if (this.pos + 2 > this.buf.length) this.ensure(2);
    this.buf[this.pos++] = b0;
    this.buf[this.pos++] = b1;
  }

  /** An unsigned varint below 2^32. */
  varint32(v: number): void {
    if (this.pos + 5 > this.buf.length) this.ensure(5);
    const buf = this.buf;
    let p = this.pos;
    while (v > 127) {
      buf[p++] = (v & 127) | 128;
      v >>>= 7;
    }
    buf[p++] = v;
    this.pos = p;
  }

  /** A varint of the two 32-bit halves of a 64-bit value. */
  private varint64(lo: number, hi: number): void {
    if (this.pos + 10 > this.buf.length) this.ensure(10);
    const buf = this.buf;
    let p = this.pos;
    while (hi) {
      buf[p++] = (lo & 127) | 128;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    while (lo > 127) {
      buf[p++] = (lo & 127) | 128;
      lo >>>= 7;
    }
    buf[p++] = lo;
    this.pos = p;
  }

  /** A JavaScript number as 64 bits (protobufjs' LongBits.fromNumber: truncated, two's complement when negative). */
  private number64(value: number): void {
    if (value === 0 || value !== value) {
      this.byte(0);
      return;
    }
    const negative = value < 0;
    if (negative) value = -value;
    let lo = value >>> 0;
    let hi = ((value - lo) / twoTo32) >>> 0;
    if (negative) {
      hi = ~hi >>> 0;
      lo = ~lo >>> 0;
      if (++lo > 4294967295) {
        lo = 0;
        if (++hi > 4294967295) hi = 0;
      }
    }
    this.varint64(lo, hi);
  }

  /** An int32 field's value. */
  int32(v: number): void {
    if (v >= 0) this.varint32(v >>> 0);
    else this.number64(v);
  }

  /** An int64 field's value. */
  int64(v: number): void {
    if (v >= 0 && v < 2147483648 && (v | 0) === v) this.varint32(v);
    else this.number64(v);
  }

  /** A bool field's value. */
  bool(v: boolean): void {
    this.byte(v ? 1 : 0);
  }

  /** A double field's value (8 bytes, little-endian). */
  double(v: number): void {
    this.ensure(8);
    this.buf.writeDoubleLE(v, this.pos);
    this.pos += 8;
  }

  /** A string field's value: its UTF-8 length, then its bytes. */
  string(s: string): void {
    const n = s.length;
    if (n < 43) {
      // At most 126 bytes of UTF-8: one length byte. ASCII is copied here; anything else by Buffer.write.
      if (this.pos + 1 + n * 3 > this.buf.length) this.ensure(1 + n * 3);
      const buf = this.buf;
      const start = this.pos;
      let p = start + 1;
      for (let i = 0; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 128) {
          p = start + 1 + utf8Write(buf, s, start + 1);
          break;
        }
        buf[p++] = c;
      }
      buf[start] = p - start - 1;
      this.pos = p;
      return;
    }
    const bytes = Buffer.byteLength(s, 'utf8');
    this.varint32(bytes);
    this.ensure(bytes);
    utf8Write(this.buf, s, this.pos);
    this.pos += bytes;
  }

  /** A bytes field's value. */
  bytes(b: Uint8Array): void {
    this.varint32(b.length);
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** Reserves the length byte of a message about to be written; returns where it is. */
  begin(): number {
    if (this.pos >= this.buf.length) this.ensure(1);
    return this.pos++;
  }

  /** Writes the length of the message begun at `at`, moving its bytes up when the length takes more than a byte. */
  end(at: number): void {
    const length = this.pos - at - 1;
    if (length < 128) {
      this.buf[at] = length;
      return;
    }
    const extra = length < 16384 ? 1 : length < 2097152 ? 2 : length < 268435456 ? 3 : 4;
    this.ensure(extra);
    this.buf.copyWithin(at + 1 + extra, at + 1, this.pos);
    const saved = this.pos;
    this.pos = at;
    this.varint32(length);
    this.pos = saved + extra;
  }

  /** Drops what was written since `at` (a message that turned out to have no fields). */
  rewind(at: number): void {
    this.pos = at;
  }
}
