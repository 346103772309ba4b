/**
 * Label selectors in their string form (k8s.io/apimachinery/pkg/labels): parsing and matching.
 *
 * Grammar, as `labels.Parse` reads it: requirements separated by `,`, each one of `key`, `!key`, `key=value`,
 * `key==value`, `key!=value`, `key in (v1,v2)`, `key notin (v1,v2)`, `key>n`, `key<n`. Keys must be qualified names
 * and values valid label values; a bad selector is an error value (the server answers 400 BadRequest).
 */

/** One requirement's operator. */
export type LabelOperator = 'exists' | 'doesNotExist' | 'equals' | 'notEquals' | 'in' | 'notIn' | 'gt' | 'lt';

/** One requirement of a selector. */
export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  readonly values: readonly string[];
}

/** A parsed label selector: all requirements must hold (an empty selector selects everything). */
export interface LabelSelector {
  readonly requirements: readonly LabelRequirement[];
}

/** Result of parsing a selector. */
export type SelectorParse<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

const qualifiedNamePart = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Why `key` is not a valid label key (a qualified name), or undefined. Messages as IsQualifiedName's. */
export function labelKeyError(key: string): string | undefined {
  const parts = key.split('/');
  let name = key;
  if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) return 'prefix part must be non-empty';
    if (prefix.length > 253 || !dns1123Subdomain.test(prefix)) {
      return "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    }
  } else if (parts.length > 2) {
    return "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
  }
  if (name.length === 0) return 'name part must be non-empty';
  if (name.length > 63) return 'name part must be no more than 63 characters';
  if (!qualifiedNamePart.test(name)) {
    return "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
  }
  return undefined;
}

/** Why `value` is not a valid label value, or undefined. Messages as IsValidLabelValue's. */
export function labelValueError(value: string): string | undefined {
  if (value.length > 63) return 'must be no more than 63 characters';
  if (value !== '' && !qualifiedNamePart.test(value)) {
    return "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
  }
  return undefined;
}

type Token =
  | { kind: 'id'; text: string }
  | { kind: 'op'; text: '!' | '=' | '==' | '!=' | '>' | '<' | ',' | '(' | ')' };

/** Splits a selector into identifiers and operators (labels.Lexer). */
function lex(input: string): Token[] | string {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
    } else if (c === '!' && input[i + 1] === '=') {
      tokens.push({ kind: 'op', text: '!=' });
      i += 2;
    } else if (c === '=' && input[i + 1] === '=') {
      tokens.push({ kind: 'op', text: '==' });
      i += 2;
    } else if (c === '!' || c === '=' || c === '>' || c === '<' || c === ',' || c === '(' || c === ')') {
      tokens.push({ kind: 'op', text: c });
      i++;
    } else {
      let j = i;
      while (j < input.length && !' \t\n\r!=><,()'.includes(input[j]!)) j++;
      tokens.push({ kind: 'id', text: input.slice(i, j) });
      i = j;
    }
  }
  return tokens;
}

/** Parses a label selector string. `''` selects everything. */
export function parseLabelSelector(input: string): SelectorParse<LabelSelector> {
  const lexed = lex(input);
  if (typeof lexed === 'string') return { ok: false, message: lexed };
  const tokens = lexed;
  const requirements: LabelRequirement[] = [];
  let pos = 0;
  const peek = (): Token | undefined => tokens[pos];
  const fail = (message: string): SelectorParse<LabelSelector> => ({ ok: false, message: `unable to parse requirement: ${message}` });

  while (pos < tokens.length) {
    let negated = false;
    if (peek()?.kind === 'op' && peek()!.text === '!') {
      negated = true;
      pos++;
    }
    const keyTok = peek();
    if (keyTok?.kind !== 'id') return fail(`found '${keyTok?.text ?? ''}', expected: identifier`);
    pos++;
    const key = keyTok.text;
    const keyErr = labelKeyError(key);
    if (keyErr !== undefined) return fail(`key: Invalid value: ${JSON.stringify(key)}: ${keyErr}`);
    const next = peek();
    if (negated || next === undefined || (next.kind === 'op' && next.text === ',')) {
      requirements.push({ key, operator: negated ? 'doesNotExist' : 'exists', values: [] });
      if (next !== undefined) {
        if (negated && !(next.kind === 'op' && next.text === ',')) return fail(`found '${next.text}', expected: ','`);
        pos++;
        if (pos === tokens.length) return fail("found '', expected: identifier after ','");
      }
      continue;
    }
    let operator: LabelOperator;
    if (next.kind === 'id' && next.text === 'in') operator = 'in';
    else if (next.kind === 'id' && next.text === 'notin') operator = 'notIn';
    else if (next.kind === 'op' && (next.text === '=' || next.text === '==')) operator = 'equals';
    else if (next.kind === 'op' && next.text === '!=') operator = 'notEquals';
    else if (next.kind === 'op' && next.text === '>') operator = 'gt';
    else if (next.kind === 'op' && next.text === '<') operator = 'lt';
    else return fail(`found '${next.text}', expected: in, notin, =, ==, !=, gt, lt`);
    pos++;
    const values: string[] = [];
    if (operator === 'in' || operator === 'notIn') {
      const open = peek();
      if (!(open?.kind === 'op' && open.text === '(')) return fail(`found '${open?.text ?? ''}', expected: '('`);
      pos++;
      for (;;) {
        const t = peek();
        if (t === undefined) return fail("found '', expected: ')'");
        if (t.kind === 'op' && t.text === ')') {
          if (values.length === 0 || tokens[pos - 1]?.text === ',') values.push('');
          pos++;
          break;
        }
        if (t.kind === 'id') {
          values.push(t.text);
          pos++;
          const after = peek();
          if (after?.kind === 'op' && after.text === ',') pos++;
          else if (!(after?.kind === 'op' && after.text === ')')) return fail(`found '${after?.text ?? ''}', expected: ',' or ')'`);
          continue;
        }
        if (t.kind === 'op' && t.text === ',') {
          values.push('');
          pos++;
          continue;
        }
        return fail(`found '${t.text}', expected: ',', ')' or identifier`);
      }
    } else {
      const v = peek();
      if (v?.kind === 'id') {
        values.push(v.text);
        pos++;
      } else if (operator === 'equals' || operator === 'notEquals') {
        values.push('');
      } else {
        return fail(`found '${v?.text ?? ''}', expected: identifier`);
      }
    }
    for (const [i, v] of values.entries()) {
      if (operator === 'gt' || operator === 'lt') {
        if (!/^-?\d+$/.test(v)) return fail(`for 'Gt', 'Lt' operators, the value must be an integer`);
      } else {
        const err = labelValueError(v);
        if (err !== undefined) return fail(`values[${i}][${key}]: Invalid value: ${JSON.stringify(v)}: ${err}`);
      }
    }
    requirements.push({ key, operator, values });
    const sep = peek();
    if (sep !== undefined) {
      if (!(sep.kind === 'op' && sep.text === ',')) return fail(`found '${sep.text}', expected: ','`);
      pos++;
      if (pos === tokens.length) return fail("found '', expected: identifier after ','");
    }
  }
  return { ok: true, value: { requirements } };
}

/** True when `labels` satisfy every requirement of `selector` (labels.Selector.Matches). */
export function matchesLabels(selector: LabelSelector, labels: Readonly<Record<string, string>> | undefined): boolean {
  const has = (key: string): boolean => labels !== undefined && Object.prototype.hasOwnProperty.call(labels, key);
  for (const r of selector.requirements) {
    const present = has(r.key);
    const value = present ? labels![r.key]! : undefined;
    switch (r.operator) {
      case 'exists':
        if (!present) return false;
        break;
      case 'doesNotExist':
        if (present) return false;
        break;
      case 'equals':
      case 'in':
        if (!present || !r.values.includes(value!)) return false;
        break;
      case 'notEquals':
      case 'notIn':
        if (present && r.values.includes(value!)) return false;
        break;
      case 'gt':
      case 'lt': {
        if (!present || !/^-?\d+$/.test(value!)) return false;
        const have = Number(value);
        const want = Number(r.values[0]);
        if (r.operator === 'gt' ? !(have > want) : !(have < want)) return false;
        break;
      }
    }
  }
  return true;
}

/** True when the selector has no requirements (selects everything). */
export function isEverythingLabels(selector: LabelSelector): boolean {
  return selector.requirements.length === 0;
}
