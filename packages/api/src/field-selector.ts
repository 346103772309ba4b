/**
 * Field selectors in their string form (k8s.io/apimachinery/pkg/fields): parsing and matching.
 *
 * Grammar, as `fields.ParseSelector` reads it: terms separated by `,`, each `field=value`, `field==value` or
 * `field!=value`; a backslash escapes `\`, `,` and `=` inside values. Which fields a resource supports is the
 * server's business (it answers 400 `field label not supported: x` for others).
 */
import type { SelectorParse } from './label-selector.js';

/** One term of a field selector. */
export interface FieldRequirement {
  readonly field: string;
  readonly operator: 'equals' | 'notEquals';
  readonly value: string;
}

/** A parsed field selector: all terms must hold (an empty selector selects everything). */
export interface FieldSelector {
  readonly requirements: readonly FieldRequirement[];
}

/** Splits on `sep` where it is not escaped by a backslash. */
function splitUnescaped(input: string, sep: string): string[] {
  const out: string[] = [];
  let current = '';
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (c === '\\' && i + 1 < input.length) {
      current += c + input[i + 1]!;
      i++;
    } else if (c === sep) {
      out.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  out.push(current);
  return out;
}

/** Resolves the escapes a value may hold; undefined for an invalid escape sequence. */
function unescapeValue(value: string): string | undefined {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const n = value[i + 1];
    if (n !== '\\' && n !== ',' && n !== '=') return undefined;
    out += n;
    i++;
  }
  return out;
}

/** Index of the first unescaped occurrence of `needle`, or -1. */
function indexUnescaped(term: string, needle: string): number {
  for (let i = 0; i < term.length; i++) {
    if (term[i] === '\\') {
      i++;
      continue;
    }
    if (term.startsWith(needle, i)) return i;
  }
  return -1;
}

/** Parses a field selector string. `''` selects everything. */
export function parseFieldSelector(input: string): SelectorParse<FieldSelector> {
  const requirements: FieldRequirement[] = [];
  if (input.trim() === '') return { ok: true, value: { requirements } };
  for (const term of splitUnescaped(input, ',')) {
    let operator: FieldRequirement['operator'];
    let at: number;
    let width: number;
    if ((at = indexUnescaped(term, '!=')) >= 0) {
      operator = 'notEquals';
      width = 2;
    } else if ((at = indexUnescaped(term, '==')) >= 0) {
      operator = 'equals';
      width = 2;
    } else if ((at = indexUnescaped(term, '=')) >= 0) {
      operator = 'equals';
      width = 1;
    } else {
      return { ok: false, message: `invalid selector: '${input}'; can't understand '${term}'` };
    }
    const field = term.slice(0, at).trim();
    const value = unescapeValue(term.slice(at + width).trim());
    if (value === undefined) return { ok: false, message: `invalid field selector: '${input}'; invalid escape sequence` };
    if (field === '') return { ok: false, message: `invalid selector: '${input}'; can't understand '${term}'` };
    requirements.push({ field, operator, value });
  }
  return { ok: true, value: { requirements } };
}

/** True when `fields` satisfy every term (a field the object does not have reads as `''`). */
export function matchesFields(selector: FieldSelector, fields: Readonly<Record<string, string>>): boolean {
  for (const r of selector.requirements) {
    const have = Object.prototype.hasOwnProperty.call(fields, r.field) ? fields[r.field] : '';
    if (r.operator === 'equals' ? have !== r.value : have === r.value) return false;
  }
  return true;
}

/** The fields a selector names, for checking them against what a resource supports. */
export function selectorFields(selector: FieldSelector): string[] {
  return selector.requirements.map((r) => r.field);
}
