/**
 * Evaluating one policy for one binding and request (k8s.io/apiserver/pkg/admission/plugin/validatingadmissionpolicy
 * validator): the policy's match conditions first (false: the policy does not apply; an error: the failure
 * policy), then every validation — a false one fails with its `messageExpression`'s result, its `message`, or
 * `failed expression: <expression>`, and its `reason` (Invalid by default); an evaluation error fails it under
 * `failurePolicy: Fail` and is ignored under `Ignore` — and the audit annotations' value expressions (a string is
 * kept as `<policy>/<key>`, null is skipped). Expressions are compiled once per policy generation; the policy's
 * expressions of one request share one runtime cost budget.
 */
import { fail, ok, type Result } from '@svc-apiserver/api';
import { compile, type Program } from '../../cel/compile.js';
import { admissionVariables } from '../../cel/admission-variables.js';
import { fieldsReadByAll } from '../../cel/references.js';
import { celEnvironment, type CelEnvironment } from '../../cel/environment.js';
import { activation, evaluateAsync } from '../../cel/evaluate.js';
import { outOfBudgetMessage, perCallLimit, runtimeCelCostBudget } from '../../cel/limits.js';
import { evaluateMatchConditions } from '../../cel/match-conditions.js';
import type { Policy } from './policy-accessor.js';

/** A compiled expression or why it does not compile. */
type Compiled = Result<Program, string>;

/** A policy with its expressions compiled. */
export interface CompiledPolicy {
  readonly policy: Policy;
  /** The environment its expressions compiled in. */
  readonly environment: CelEnvironment;
  /** The variables its validations, messages and audit annotations read: the only ones converted per request. */
  readonly variables: ReadonlySet<string>;
  /** The fields of variables they read only through field selections: the only ones converted of those. */
  readonly fieldsRead: ReadonlyMap<string, ReadonlySet<string>>;
  readonly validations: readonly { readonly expression: Compiled; readonly messageExpression?: Compiled }[];
  readonly auditAnnotations: readonly { readonly key: string; readonly value: Compiled }[];
}

/** One failed validation (or a failure to evaluate under failurePolicy Fail). */
export interface PolicyFailure {
  readonly message: string;
  /** A StatusReason; Invalid when the validation names none. */
  readonly reason: string;
  /** The index of the validation, when a validation failed. */
  readonly expressionIndex?: number;
}

/** The outcome of a policy for a request. */
export interface PolicyOutcome {
  readonly failures: readonly PolicyFailure[];
  /** Audit annotations `<key>` → value (the plugin prefixes the policy name). */
  readonly auditAnnotations: ReadonlyMap<string, string>;
}

function compileIn(expression: string, environment: CelEnvironment): Compiled {
  const c = compile(expression, environment);
  return c.ok ? ok(c.value) : fail(`compilation error: ${c.error.message}`);
}

/** Compiles a policy's expressions. */
export function compilePolicy(policy: Policy): CompiledPolicy {
  const environment = celEnvironment(admissionVariables({ params: policy.paramKind !== undefined }));
  const validations = policy.validations.map((v) => ({
    expression: compileIn(v.expression, environment),
    ...(v.messageExpression !== undefined && v.messageExpression.trim() !== '' ? { messageExpression: compileIn(v.messageExpression, environment) } : {}),
  }));
  const auditAnnotations = policy.auditAnnotations.map((a) => ({ key: a.key, value: compileIn(a.valueExpression, environment) }));
  const programs = [...validations.flatMap((v) => [v.expression, v.messageExpression]), ...auditAnnotations.map((a) => a.value)];
  const compiled = programs.flatMap((c) => (c?.ok === true ? [c.value] : []));
  const variables = new Set(compiled.flatMap((p) => [...p.variables]));
  return { policy, environment, variables, fieldsRead: fieldsReadByAll(compiled), validations, auditAnnotations };
}

const noOutcome: PolicyOutcome = { failures: [], auditAnnotations: new Map() };

/** Evaluates `compiled` with the request's variable values (`params` set when the binding names params). */
export async function evaluatePolicy(compiled: CompiledPolicy, values: Readonly<Record<string, unknown>>): Promise<PolicyOutcome> {
  const { policy } = compiled;
  const params = policy.paramKind !== undefined;
  const failClosed = policy.failurePolicy === 'Fail';
  const conditions = await evaluateMatchConditions(policy.matchConditions, values, params);
  if (conditions.kind === 'skip') return noOutcome;
  if (conditions.kind === 'error') return failClosed ? { failures: [{ message: conditions.message, reason: 'Invalid' }], auditAnnotations: new Map() } : noOutcome;
  const input = activation(compiled.environment, values, compiled.variables, compiled.fieldsRead);
  let budget = runtimeCelCostBudget;
  const failures: PolicyFailure[] = [];
  const run = async (c: Compiled, expression: string): Promise<Result<unknown, string>> => {
    if (!c.ok) return c;
    if (budget < 0) return fail(outOfBudgetMessage);
    const r = await evaluateAsync(c.value, input, { costLimit: Math.min(perCallLimit, budget) });
    budget -= r.cost;
    if (budget < 0) return fail(outOfBudgetMessage);
    return r.ok ? ok(r.value) : fail(`expression '${expression}' resulted in error: ${r.error.message}`);
  };
  for (let i = 0; i < compiled.validations.length; i++) {
    const v = policy.validations[i]!;
    const c = compiled.validations[i]!;
    const r = await run(c.expression, v.expression);
    if (!r.ok) {
      if (failClosed) failures.push({ message: r.error, reason: 'Invalid', expressionIndex: i });
      continue;
    }
    if (r.value === true) continue;
    if (r.value !== false) {
      if (failClosed) failures.push({ message: `expression '${v.expression}' resulted in a non-bool value`, reason: 'Invalid', expressionIndex: i });
      continue;
    }
    failures.push({ message: await failureMessage(v, c.messageExpression, run), reason: v.reason ?? 'Invalid', expressionIndex: i });
  }
  const auditAnnotations = new Map<string, string>();
  for (const a of compiled.auditAnnotations) {
    const r = await run(a.value, policy.auditAnnotations.find((x) => x.key === a.key)?.valueExpression ?? '');
    if (!r.ok) {
      if (failClosed) failures.push({ message: r.error, reason: 'Invalid' });
    } else if (typeof r.value === 'string') auditAnnotations.set(a.key, r.value);
  }
  return { failures, auditAnnotations };
}

/** The message of a false validation: messageExpression's non-empty single-line string, else message, else the default. */
async function failureMessage(
  v: Policy['validations'][number], messageExpression: Compiled | undefined, run: (c: Compiled, expression: string) => Promise<Result<unknown, string>>,
): Promise<string> {
  const fallback = v.message !== undefined && v.message.trim() !== '' ? v.message.trim() : `failed expression: ${v.expression.trim()}`;
  if (messageExpression === undefined) return fallback;
  const m = await run(messageExpression, v.messageExpression ?? '');
  if (m.ok && typeof m.value === 'string' && m.value.trim() !== '' && !/[\r\n]/.test(m.value)) return m.value.trim();
  return fallback;
}
