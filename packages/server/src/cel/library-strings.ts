/**
 * The strings extension kube-apiserver 1.27 enables (cel-go ext.Strings, version 0): `charAt`, `indexOf`,
 * `lastIndexOf`, `lowerAscii`, `upperAscii`, `replace`, `split`, `substring`, `trim`, `join`. Positions count code
 * points, as cel-go counts runes; `lowerAscii`/`upperAscii` leave non-ASCII letters alone; `trim` removes Unicode
 * white space as Go's strings.TrimSpace does.
 */
import { celError, type CelLibrary } from './library.js';

const runes = (s: string): string[] => Array.from(s);
const int = (n: number): bigint => BigInt(n);

function outOfRange(i: bigint): Error {
  return celError(`index out of range: ${i}`);
}

function indexOfRunes(hay: readonly string[], needle: readonly string[], from: number): number {
  for (let i = from; i + needle.length <= hay.length; i++) {
    let j = 0;
    while (j < needle.length && hay[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

function lastIndexOfRunes(hay: readonly string[], needle: readonly string[], from: number): number {
  let start = from;
  if (start + needle.length > hay.length) start = hay.length - needle.length;
  for (let i = start; i >= 0; i--) {
    let j = 0;
    while (j < needle.length && hay[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

/** Go's unicode.IsSpace. */
const goSpace = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;


/** Go's strings.Replace: at most `n` replacements (all when negative); an empty `old` matches between code points. */
export function goReplace(s: string, old: string, replacement: string, n: number): string {
  if (n === 0 || (old === replacement)) return s;
  if (old === '') {
    const rs = runes(s);
    let out = '';
    let done = 0;
    for (let i = 0; i <= rs.length; i++) {
      if (n < 0 || done < n) {
        out += replacement;
        done++;
      }
      if (i < rs.length) out += rs[i];
    }
    return out;
  }
  let out = '';
  let rest = s;
  let done = 0;
  while (n < 0 || done < n) {
    const at = rest.indexOf(old);
    if (at < 0) break;
    out += rest.slice(0, at) + replacement;
    rest = rest.slice(at + old.length);
    done++;
  }
  return out + rest;
}

/** Go's strings.SplitN: `n` 0 gives no parts, negative all; an empty separator splits into code points. */
export function goSplit(s: string, sep: string, n: number): string[] {
  if (n === 0) return [];
  if (sep === '') {
    const rs = runes(s);
    if (n < 0 || n >= rs.length) return rs;
    return [...rs.slice(0, n - 1), rs.slice(n - 1).join('')];
  }
  const parts = s.split(sep);
  if (n < 0 || parts.length <= n) return parts;
  return [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)];
}

function substring(s: string, start: bigint, end?: bigint): string {
  const rs = runes(s);
  const len = int(rs.length);
  if (start < 0n || start > len) throw outOfRange(start);
  const stop = end ?? len;
  if (stop < 0n || stop > len) throw outOfRange(stop);
  if (start > stop) throw celError(`invalid substring range. start: ${start}, end: ${stop}`);
  return rs.slice(Number(start), Number(stop)).join('');
}

function join(list: readonly unknown[], sep: string): string {
  for (const x of list) if (typeof x !== 'string') throw celError('join: list contains a non-string element');
  return list.join(sep);
}

/** The strings extension library. */
export const stringsLibrary: CelLibrary = {
  name: 'strings',
  types: [],
  overloads: [
    {
      signature: 'string.charAt(int): string',
      impl: (s: string, i: bigint) => {
        const rs = runes(s);
        if (i < 0n || i > int(rs.length)) throw outOfRange(i);
        return rs[Number(i)] ?? '';
      },
    },
    {
      signature: 'string.indexOf(string): int',
      impl: (s: string, sub: string) => int(sub === '' ? 0 : indexOfRunes(runes(s), runes(sub), 0)),
    },
    {
      signature: 'string.indexOf(string, int): int',
      impl: (s: string, sub: string, offset: bigint) => {
        if (sub === '') return offset;
        const rs = runes(s);
        if (offset < 0n || offset >= int(rs.length)) throw outOfRange(offset);
        return int(indexOfRunes(rs, runes(sub), Number(offset)));
      },
    },
    {
      signature: 'string.lastIndexOf(string): int',
      impl: (s: string, sub: string) => {
        const rs = runes(s);
        return int(sub === '' ? rs.length : lastIndexOfRunes(rs, runes(sub), rs.length));
      },
    },
    {
      signature: 'string.lastIndexOf(string, int): int',
      impl: (s: string, sub: string, offset: bigint) => {
        if (sub === '') return offset;
        const rs = runes(s);
        if (offset < 0n || offset >= int(rs.length)) throw outOfRange(offset);
        return int(lastIndexOfRunes(rs, runes(sub), Number(offset)));
      },
    },
    { signature: 'string.lowerAscii(): string', impl: (s: string) => s.replace(/[A-Z]+/g, (c) => c.toLowerCase()) },
    { signature: 'string.upperAscii(): string', impl: (s: string) => s.replace(/[a-z]+/g, (c) => c.toUpperCase()) },
    { signature: 'string.replace(string, string): string', impl: (s: string, a: string, b: string) => goReplace(s, a, b, -1) },
    {
      signature: 'string.replace(string, string, int): string',
      impl: (s: string, a: string, b: string, n: bigint) => goReplace(s, a, b, Number(n)),
    },
    { signature: 'string.split(string): list<string>', impl: (s: string, sep: string) => goSplit(s, sep, -1) },
    { signature: 'string.split(string, int): list<string>', impl: (s: string, sep: string, n: bigint) => goSplit(s, sep, Number(n)) },
    { signature: 'string.substring(int): string', impl: (s: string, start: bigint) => substring(s, start) },
    { signature: 'string.substring(int, int): string', impl: (s: string, start: bigint, end: bigint) => substring(s, start, end) },
    { signature: 'string.trim(): string', impl: (s: string) => s.replace(goSpace, '') },
    { signature: 'list<string>.join(): string', impl: (l: readonly unknown[]) => join(l, '') },
    { signature: 'list<string>.join(string): string', impl: (l: readonly unknown[], sep: string) => join(l, sep) },
  ],
};
