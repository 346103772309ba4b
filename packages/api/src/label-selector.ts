/**
 * Label selectors in their string form (k8s.io/apimachinery/pkg/labels): parsing and matching.
 *
 * Grammar, as `labels.Parse` reads it: requirements separated by `,`, each one of `key`, `!key`, `key=value`,
 * `key==value`, `key!=value`, `key in (v1,v2)`, `key notin (v1,v2)`, `key>n`, `key<n`. Keys must be qualified names
 * and values valid label values; a bad selector is an error value (the server answers 400 BadRequest).
 */
import { fail, ok, type Result } from './result.js';

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

const qualifiedNamePart = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const qualifiedNameMessage = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

/**
 * Why `key` is not a qualified name (label and annotation keys, finalizers), every message IsQualifiedName gives:
 * an empty name part is both empty and unmatched by the pattern, so it gets two, and a bad prefix adds its own.
 */
export function qualifiedNameErrors(key: string): string[] {
  const parts = key.split('/');
  if (parts.length > 2) return [`a qualified name ${qualifiedNameMessage} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  const errs: string[] = [];
  const name = parts.length === 2 ? parts[1]! : key;
  if (parts.length === 2) {
    const prefix = parts[0]!;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else {
      if (prefix.length > 253) errs.push('prefix part must be no more than 253 characters');
      if (!dns1123Subdomain.test(prefix)) {
        errs.push("prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
      }
    }
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 characters');
  if (!qualifiedNamePart.test(name)) errs.push(`name part ${qualifiedNameMessage}`);
  return errs;
}

/** Why `value` is not a label value, every message IsValidLabelValue gives (too long and unmatched both count). */
export function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (value !== '' && !qualifiedNamePart.test(value)) {
    errs.push("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')");
  }
  return errs;
}

/** Why `key` is not a valid label key, or undefined: IsQualifiedName's messages joined as labels.Parse joins them. */
export function labelKeyError(key: string): string | undefined {
  const errs = qualifiedNameErrors(key);
  return errs.length === 0 ? undefined : errs.join('; ');
}

/** Why `value` is not a valid label value, or undefined: IsValidLabelValue's messages joined as labels.Parse joins them. */
export function labelValueError(value: string): string | undefined {
  const errs = labelValueErrors(value);
  return errs.length === 0 ? undefined : errs.join('; ');
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

/** Go's `%q` of a string, near enough for messages (JSON escapes are Go's for printable text). */
const quote = (v: string): string => JSON.stringify(v);

/** True when `v` is what Go's strconv.ParseInt(v, 10, 64) accepts. */
function isInt64(v: string): boolean {
  if (!/^[+-]?\d+$/.test(v)) return false;
  const n = BigInt(v);
  return n >= -(2n ** 63n) && n < 2n ** 63n;
}

/**
 * The checks of labels.NewRequirement, with its messages: field errors under the paths `values[i]` and
 * `values[i][key]`, several joined as an aggregate (`[e1, e2]`). The key was checked while parsing.
 */
function requirementErrors(key: string, operator: LabelOperator, values: readonly string[]): string | undefined {
  const errs: string[] = [];
  if (operator === 'gt' || operator === 'lt') {
    if (values.length !== 1) errs.push(`values: Invalid value: ${quote(JSON.stringify(values))}: for 'Gt', 'Lt' operators, exactly one value is required`);
    for (const [i, v] of values.entries()) {
      if (!isInt64(v)) errs.push(`values[${i}]: Invalid value: ${quote(v)}: for 'Gt', 'Lt' operators, the value must be an integer`);
    }
  }
  for (const [i, v] of values.entries()) {
    const err = labelValueError(v);
    if (err !== undefined) errs.push(`values[${i}][${key}]: Invalid value: ${quote(v)}: ${err}`);
  }
  if (errs.length === 0) return undefined;
  return errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`;
}

/**
 * Parses a label selector string (labels.Parse); `''` or only whitespace selects everything. Follows kube's parser
 * step by step so that the same inputs are accepted (`x in ()` and `x=` mean the empty value, `in (a,,b)` holds `''`
 * too, values are a set) and the same errors come back word for word: those inside a requirement prefixed with
 * `unable to parse requirement: `, key errors under kube's nil field path (`<nil>: Invalid value: ...`).
 */
export function parseLabelSelector(input: string): Result<LabelSelector, string> {
  const lexed = lex(input);
  if (typeof lexed === 'string') return fail(lexed);
  const tokens = lexed;
  const requirements: LabelRequirement[] = [];
  let pos = 0;
  const peek = (): Token | undefined => tokens[pos];
  const consume = (): Token | undefined => tokens[pos++];
  const lit = (t: Token | undefined): string => t?.text ?? '';
  const isOp = (t: Token | undefined, text: string): boolean => t?.kind === 'op' && t.text === text;
  const startsRequirement = (t: Token | undefined): boolean => t?.kind === 'id' || isOp(t, '!');

  /** One requirement (Parser.parseRequirement); an error message without the prefix. */
  const requirement = (): LabelRequirement | string => {
    let t = consume();
    let operator: LabelOperator | undefined;
    if (isOp(t, '!')) {
      operator = 'doesNotExist';
      t = consume();
    }
    if (t?.kind !== 'id') return `found '${lit(t)}', expected: identifier`;
    const key = t.text;
    const keyErr = labelKeyError(key);
    if (keyErr !== undefined) return `<nil>: Invalid value: ${quote(key)}: ${keyErr}`;
    const after = peek();
    // `!key` is complete whatever follows; what follows is then the selector's business (`,` or the end).
    if (operator === 'doesNotExist') return { key, operator, values: [] };
    if (after === undefined || isOp(after, ',')) return { key, operator: 'exists', values: [] };
    const opTok = consume()!;
    if (opTok.kind === 'id' && opTok.text === 'in') operator = 'in';
    else if (opTok.kind === 'id' && opTok.text === 'notin') operator = 'notIn';
    else if (isOp(opTok, '=') || isOp(opTok, '==')) operator = 'equals';
    else if (isOp(opTok, '!=')) operator = 'notEquals';
    else if (isOp(opTok, '>')) operator = 'gt';
    else if (isOp(opTok, '<')) operator = 'lt';
    else return `found '${opTok.text}', expected: in, notin, =, ==, !=, gt, lt`;
    const values = new Set<string>();
    if (operator === 'in' || operator === 'notIn') {
      const open = consume();
      if (!isOp(open, '(')) return `found '${lit(open)}' expected: '('`;
      const first = peek();
      if (isOp(first, ')')) {
        consume();
        values.add('');
      } else if (first?.kind === 'id' || isOp(first, ',')) {
        // Parser.parseIdentifiersList: empty members (`(,a)`, `(a,,b)`, `(a,)`) are the empty value.
        for (let done = false; !done;) {
          const v = consume();
          if (v?.kind === 'id') {
            values.add(v.text);
            const next = peek();
            if (isOp(next, ')')) done = true;
            else if (!isOp(next, ',')) return `found '${lit(next)}', expected: ',' or ')'`;
          } else if (isOp(v, ',')) {
            if (values.size === 0) values.add('');
            const next = peek();
            if (isOp(next, ')')) {
              values.add('');
              done = true;
            } else if (isOp(next, ',')) {
              consume();
              values.add('');
            }
          } else {
            return `found '${lit(v)}', expected: ',', or identifier`;
          }
        }
        // kube reports the token seen after `(`, not the one found here.
        if (!isOp(consume(), ')')) return `found '${lit(first)}', expected: ')'`;
      } else {
        return `found '${lit(first)}', expected: ',', ')' or identifier`;
      }
    } else {
      const v = peek();
      if (v === undefined || isOp(v, ',')) values.add('');
      else if (v.kind === 'id') values.add(consume()!.text);
      else return `found '${v.text}', expected: identifier`;
    }
    const sorted = [...values].sort();
    return requirementErrors(key, operator, sorted) ?? { key, operator, values: sorted };
  };

  for (;;) {
    const t = peek();
    if (t === undefined) break;
    if (!startsRequirement(t)) return fail(`found '${t.text}', expected: !, identifier, or 'end of string'`);
    const r = requirement();
    if (typeof r === 'string') return fail(`unable to parse requirement: ${r}`);
    requirements.push(r);
    const sep = consume();
    if (sep === undefined) break;
    if (!isOp(sep, ',')) return fail(`found '${sep.text}', expected: ',' or 'end of string'`);
    if (!startsRequirement(peek())) return fail(`found '${lit(peek())}', expected: identifier after ','`);
  }
  return ok({ requirements });
}

/**
 * True when `labels` satisfy every requirement of `selector` (labels.Selector.Matches). Whatever storage may hold is
 * taken: labels that are no map (`null`, a list) are no labels, and a label whose value is no string is absent.
 */
export function matchesLabels(selector: LabelSelector, labels: Readonly<Record<string, string>> | null | undefined): boolean {
  const map = typeof labels === 'object' && labels !== null && !Array.isArray(labels) ? labels : undefined;
  const valueOf = (key: string): string | undefined => {
    if (map === undefined || !Object.prototype.hasOwnProperty.call(map, key)) return undefined;
    const v: unknown = map[key];
    return typeof v === 'string' ? v : undefined;
  };
  for (const r of selector.requirements) {
    const value = valueOf(r.key);
    const present = value !== undefined;
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
        // strconv.ParseInt on both sides, as Requirement.Matches: a label that is not an integer does not match.
        if (!present || !isInt64(value!) || r.values.length !== 1 || !isInt64(r.values[0]!)) return false;
        const have = BigInt(value!);
        const want = BigInt(r.values[0]!);
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
