/**
 * The nesting checks of request data against {@link maxNestingDepth} (why the bound is what it is: the api
 * package's nesting-depth.ts). The checks themselves never recurse: JSON text is scanned character by character
 * and decoded values are walked with an explicit stack.
 */
import { runSteps, type Steps } from './turn-budget.js';
import { maxNestingDepth } from '@svc-apiserver/api';

/** The message of a body nested deeper than the limit. */
export function nestingTooDeepMessage(what = 'the request body'): string {
  return `${what} is nested too deeply: objects and lists may nest at most ${maxNestingDepth} levels`;
}

/** What a scan of JSON text found. */
export interface JsonTextScan {
  /** True when objects and arrays nest deeper than the limit given. */
  readonly tooDeep: boolean;
  /** True when some number literal may not fit a double (very long, or a large exponent). */
  readonly hugeNumber: boolean;
  /** True when some integer literal has more digits than a double holds exactly (16 or more). */
  readonly longInteger: boolean;
  /**
   * The object keys of the text, duplicates included (meaningful for valid JSON): a parsed value with fewer own keys
   * had duplicated ones, which JSON.parse silently merges.
   */
  readonly keys: number;
}

/** The kinds of the open containers of a scan (1: object, 0: array), kept between scans (they never overlap). */
const openKinds = new Uint8Array(maxNestingDepth + 2);

/**
 * Scans JSON text (valid or not) for its nesting depth and for number literals that may overflow, outside
 * strings; linear, stops at the first level past `limit`.
 */
export function scanJsonText(text: string, limit = maxNestingDepth): JsonTextScan {
  const kinds = limit <= maxNestingDepth ? openKinds : new Uint8Array(limit + 2);
  let depth = 0;
  let hugeNumber = false;
  let longInteger = false;
  let keys = 0;
  // A string right after `{`, or after `,` in an object, is a key.
  let expectKey = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      if (expectKey) {
        keys++;
        expectKey = false;
      }
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i += 2;
        else if (d === 0x22) break;
        else i++;
      }
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > limit) return { tooDeep: true, hugeNumber, longInteger, keys };
      expectKey = c === 0x7b;
      kinds[depth] = expectKey ? 1 : 0;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      expectKey = depth > 0 && kinds[depth] === 1;
    } else if ((c >= 0x30 && c <= 0x39) || c === 0x2d /* - */) {
      // A double holds about 308 decimal digits and exponents up to 308.
      const start = i;
      let exponentAt = -1;
      let fraction = false;
      while (i + 1 < n) {
        const d = text.charCodeAt(i + 1);
        if (d === 0x65 || d === 0x45 /* e E */) exponentAt = i + 1;
        else if (d === 0x2e /* . */) fraction = true;
        else if (!((d >= 0x30 && d <= 0x39) || d === 0x2d || d === 0x2b)) break;
        i++;
      }
      if (exponentAt < 0 && !fraction && i + 1 - start - (c === 0x2d ? 1 : 0) >= 16) longInteger = true;
      if (i - start > 300 || (exponentAt >= 0 && !(Math.abs(Number(text.slice(exponentAt + 1, i + 1))) <= 300))) hugeNumber = true;
    }
  }
  return { tooDeep: false, hugeNumber, longInteger, keys };
}

/** True when a decoded value nests objects and arrays deeper than `limit` (an explicit stack, no recursion). */
export function valueTooDeep(value: unknown, limit = maxNestingDepth): boolean {
  return runSteps(valueTooDeepSteps(value, limit));
}

/** How many nested values the walk visits between two points where it may yield. */
const valuesPerStep = 4096;

/** {@link valueTooDeep} in steps (limits/turn-budget.ts): a patched object of many keys is walked across turns. */
export function* valueTooDeepSteps(value: unknown, limit = maxNestingDepth): Steps<boolean> {
  const stack: { readonly v: unknown; readonly d: number }[] = [{ v: value, d: 0 }];
  let n = 0;
  while (stack.length > 0) {
    const { v, d } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (d + 1 > limit) return true;
    // Keys, then each value: Object.values of an object of 100,000 keys costs V8 several times as much.
    const keys = Array.isArray(v) ? undefined : Object.keys(v);
    const length = keys?.length ?? (v as unknown[]).length;
    for (let i = 0; i < length; i++) {
      const child: unknown = keys === undefined ? (v as unknown[])[i] : (v as Record<string, unknown>)[keys[i]!];
      if (typeof child === 'object' && child !== null) stack.push({ v: child, d: d + 1 });
      if (++n % valuesPerStep === 0) yield;
    }
  }
  return false;
}
