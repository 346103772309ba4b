/**
 * Label selectors in their object form (metav1.LabelSelector: `matchLabels` and `matchExpressions`), converted to
 * the requirement form of {@link LabelSelector} as metav1.LabelSelectorAsSelector does.
 */
import { labelKeyError, labelValueError, type LabelRequirement, type LabelSelector } from './label-selector.js';
import { fail, ok, type Result } from './result.js';

/** A label selector as objects carry it (metav1.LabelSelector). */
export interface MetaLabelSelectorObject {
  readonly matchLabels?: Readonly<Record<string, string>> | null;
  readonly matchExpressions?: readonly {
    readonly key: string;
    readonly operator: string;
    readonly values?: readonly string[] | null;
  }[] | null;
}

/**
 * Converts a metav1.LabelSelector (LabelSelectorAsSelector): `undefined`/`null` selects nothing, an empty selector
 * selects everything; `matchLabels` entries are equality requirements, expressions `In`, `NotIn`, `Exists` and
 * `DoesNotExist` (with kube's value-count rules). An invalid selector is an error value.
 */
export function labelSelectorFromMeta(selector: MetaLabelSelectorObject | null | undefined): Result<LabelSelector | 'nothing', string> {
  if (selector === undefined || selector === null) return ok('nothing');
  // What storage holds may not have the declared shape: anything else is an invalid selector, never a throw.
  const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isMap(selector)) return fail('a label selector must be an object');
  const matchLabels: unknown = selector.matchLabels ?? {};
  const matchExpressions: unknown = selector.matchExpressions ?? [];
  if (!isMap(matchLabels) || !Array.isArray(matchExpressions)) return fail('matchLabels must be a map and matchExpressions a list');
  const requirements: LabelRequirement[] = [];
  for (const [key, value] of Object.entries(matchLabels)) {
    if (typeof value !== 'string') return fail(`the value of label ${JSON.stringify(key)} must be a string`);
    const bad = labelKeyError(key) ?? labelValueError(value);
    if (bad !== undefined) return fail(bad);
    requirements.push({ key, operator: 'equals', values: [value] });
  }
  for (const expr of matchExpressions as unknown[]) {
    if (!isMap(expr) || typeof expr.key !== 'string' || (expr.values != null && !Array.isArray(expr.values))) {
      return fail('a match expression must have a string key and a list of values');
    }
    const keyError = labelKeyError(expr.key);
    if (keyError !== undefined) return fail(keyError);
    const values = [...((expr.values ?? []) as unknown[])].map((v) => (typeof v === 'string' ? v : String(v)));
    switch (expr.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) return fail('for \'in\', \'notin\' operators, values set can\'t be empty');
        for (const v of values) {
          const bad = labelValueError(v);
          if (bad !== undefined) return fail(bad);
        }
        requirements.push({ key: expr.key, operator: expr.operator === 'In' ? 'in' : 'notIn', values: [...new Set(values)].sort() });
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length !== 0) return fail('values set must be empty for exists and does not exist');
        requirements.push({ key: expr.key, operator: expr.operator === 'Exists' ? 'exists' : 'doesNotExist', values: [] });
        break;
      default:
        return fail(`"${expr.operator}" is not a valid label selector operator`);
    }
  }
  // labels.NewSelector sorts requirements by key; matching does not depend on the order.
  requirements.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return ok({ requirements });
}
