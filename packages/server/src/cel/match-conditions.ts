/**
 * `matchConditions` of admission webhooks and ValidatingAdmissionPolicies (document 3 §Webhook configuration
 * resources; k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions): named boolean expressions over
 * `object`, `oldObject`, `request` and `authorizer` (and `params` in a policy). All must be true for the webhook
 * or policy to apply. A condition that is false skips it even when others failed to evaluate; otherwise an
 * evaluation error is the outcome, and the caller's failure policy decides. The conditions of one request share
 * one runtime cost budget. Writes of configurations are checked here too: at most 64 conditions, each with a
 * unique qualified name and an expression that compiles to a bool.
 */
import { fieldError, type FieldError } from '@svc-apiserver/api';
import { admissionVariables } from './admission-variables.js';
import { compile } from './compile.js';
import { celEnvironment, type CelEnvironment } from './environment.js';
import { activation, evaluateAsync } from './evaluate.js';
import { outOfBudgetMessage, perCallLimit, runtimeCelCostBudgetMatchConditions } from './limits.js';
import { isQualifiedName } from '../meta/name-rules.js';

/** One condition as written. */
export interface MatchCondition {
  readonly name: string;
  readonly expression: string;
}

/** The outcome of a request's conditions. */
export type MatchConditionsOutcome =
  | { readonly kind: 'match' }
  | { readonly kind: 'skip'; readonly condition: string }
  | { readonly kind: 'error'; readonly message: string };

/** The most conditions one webhook or policy may have. */
export const maxMatchConditions = 64;

/** The conditions of a written object (entries that are not objects read as empty). */
export function matchConditionsOf(value: unknown): MatchCondition[] {
  if (!Array.isArray(value)) return [];
  return value.map((c) => {
    const o = typeof c === 'object' && c !== null ? c as Record<string, unknown> : {};
    return { name: typeof o['name'] === 'string' ? o['name'] : '', expression: typeof o['expression'] === 'string' ? o['expression'] : '' };
  });
}

/** The environment conditions compile in. */
export function matchConditionEnvironment(params: boolean): CelEnvironment {
  return celEnvironment(admissionVariables({ params }));
}

/** kube's check of an admission expression: it compiles, and to a bool. The error detail, or undefined. */
export function booleanExpressionError(expression: string, env: CelEnvironment): string | undefined {
  const compiled = compile(expression, env);
  if (!compiled.ok) return `compilation failed: ${compiled.error.message}`;
  if (compiled.value.outputType !== 'bool' && compiled.value.outputType !== 'dyn') return 'must evaluate to bool';
  return undefined;
}

/** validateMatchConditions: the field errors of a `matchConditions` list at `path`. */
export function validateMatchConditions(value: unknown, path: string, params: boolean): FieldError[] {
  if (value === undefined || value === null) return [];
  const conditions = matchConditionsOf(value);
  const errors: FieldError[] = [];
  if (conditions.length > maxMatchConditions) errors.push(fieldError.tooMany(path, conditions.length, maxMatchConditions));
  const env = matchConditionEnvironment(params);
  const seen = new Set<string>();
  conditions.forEach((c, i) => {
    const at = `${path}[${i}]`;
    if (c.name === '') errors.push(fieldError.required(`${at}.name`));
    else {
      for (const msg of isQualifiedName(c.name)) errors.push(fieldError.invalid(`${at}.name`, c.name, msg));
      if (seen.has(c.name)) errors.push(fieldError.duplicate(`${at}.name`, c.name));
      seen.add(c.name);
    }
    if (c.expression.trim() === '') errors.push(fieldError.required(`${at}.expression`));
    else {
      const bad = booleanExpressionError(c.expression, env);
      if (bad !== undefined) errors.push(fieldError.invalid(`${at}.expression`, c.expression, bad));
    }
  });
  return errors;
}

/** Evaluates `conditions` with the request's variable values. */
export async function evaluateMatchConditions(
  conditions: readonly MatchCondition[], values: Readonly<Record<string, unknown>>, params: boolean,
): Promise<MatchConditionsOutcome> {
  if (conditions.length === 0) return { kind: 'match' };
  const env = matchConditionEnvironment(params);
  const programs = conditions.map((c) => compile(c.expression, env));
  // Only the variables the conditions read are built and converted.
  const input = activation(env, values, new Set(programs.flatMap((p) => (p.ok ? [...p.value.variables] : []))));
  const errors: string[] = [];
  let budget = runtimeCelCostBudgetMatchConditions;
  for (const [i, c] of conditions.entries()) {
    const compiled = programs[i]!;
    if (!compiled.ok) {
      errors.push(`compilation failed: ${compiled.error.message}`);
      continue;
    }
    const result = await evaluateAsync(compiled.value, input, { costLimit: Math.min(perCallLimit, budget) });
    budget -= result.cost;
    if (budget < 0) {
      errors.push(outOfBudgetMessage);
      break;
    }
    if (!result.ok) errors.push(`expression '${c.expression}' resulted in error: ${result.error.message}`);
    else if (result.value === false) return { kind: 'skip', condition: c.name };
    else if (result.value !== true) errors.push(`expression '${c.expression}' resulted in a non-bool value`);
  }
  if (errors.length === 0) return { kind: 'match' };
  return { kind: 'error', message: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` };
}
