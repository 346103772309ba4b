/**
 * Field selectors in their string form (k8s.io/apimachinery/pkg/fields): parsing and matching.
 *
 * Grammar, as `fields.ParseSelector` reads it: terms separated by `,`, each `field=value`, `field==value` or
 * `field!=value`; a backslash escapes `\`, `,` and `=` inside values. Which fields a resource supports is the
 * server's business (it answers 400 `field label not supported: x` for others).
 */
import { fail, ok, type Result } from './result.js';

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

/** Splits on `,` where it is not escaped by a backslash (fields.splitTerms): the escape stays in the term. */
function splitTerms(input: string): string[] {
  const out: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      out.push(input.slice(start, i));
      start = i + 1;
    }
  }
  out.push(input.slice(start));
  return out;
}

/** The operators a term is split at, tried in this order at each position (fields.termOperators). */
const termOperators = [['!=', 'notEquals'], ['==', 'equals'], ['=', 'equals']] as const;

/**
 * Resolves the escapes of a value (fields.UnescapeValue), or the error kube gives: `\\`, `\,` and `\=` are the only
 * escapes, and an unescaped `,` or `=` is refused (kube prints that character as its code point).
 */
function unescapeValue(value: string): Result<string, string> {
  let out = '';
  let inSlash = false;
  for (const c of value) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') return fail(`invalid field selector: invalid escape sequence: \\${c}`);
      out += c;
      inSlash = false;
    } else if (c === '\\') {
      inSlash = true;
    } else if (c === ',' || c === '=') {
      return fail(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else {
      out += c;
    }
  }
  if (inSlash) return fail('invalid field selector: invalid escape sequence: \\');
  return ok(out);
}

/**
 * Parses a field selector string (fields.ParseSelector); `''` selects everything. As kube: empty terms are skipped
 * (`a=b,`), nothing is trimmed (a space belongs to the field or the value), a term splits at its first operator,
 * and the value's escapes are resolved; requirements come in sorted term order.
 */
export function parseFieldSelector(input: string): Result<FieldSelector, string> {
  const requirements: FieldRequirement[] = [];
  if (input === '') return ok({ requirements });
  // Terms in sorted order, as kube reads them: with several bad terms, the same one is reported.
  for (const term of splitTerms(input).sort()) {
    if (term === '') continue;
    let split: { field: string; operator: FieldRequirement['operator']; rest: string } | undefined;
    for (let i = 0; i < term.length && split === undefined; i++) {
      for (const [op, operator] of termOperators) {
        if (term.startsWith(op, i)) {
          split = { field: term.slice(0, i), operator, rest: term.slice(i + op.length) };
          break;
        }
      }
    }
    if (split === undefined) return fail(`invalid selector: '${input}'; can't understand '${term}'`);
    const value = unescapeValue(split.rest);
    if (!value.ok) return value;
    requirements.push({ field: split.field, operator: split.operator, value: value.value });
  }
  return ok({ requirements });
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
