/**
 * Evaluating a compiled expression against variable values (cel-go's Program.Eval with a cost limit): the result
 * value, or the error — a runtime error in cel-go's words (`no such key: x`, `division by zero`...) or the cost
 * limit's `operation cancelled: actual cost limit exceeded` — with the cost spent, which callers subtract from their
 * shared budget (RuntimeCELCostBudget). Never throws for anything an expression or its data can do.
 */
import { fail, ok, type Result } from '@svc-apiserver/api';
import type { Program } from './compile.js';
import type { CelEnvironment } from './environment.js';
import { EvaluationState, HaltEvaluation, withEvaluation, type DecisionCache } from './evaluation-state.js';
import { internalPrefix } from './environment.js';
import { perCallLimit } from './limits.js';
import { toCelValue, toDynValue } from './values.js';

/** Variable values ready for evaluation (made by {@link activation}). */
export interface Activation {
  readonly values: Readonly<Record<string, unknown>>;
}

/**
 * The values of an environment's variables, from JSON (and, for `authorizer`, the authorizer value), converted by the
 * declared types. One activation serves every program of its environment; given `only` (the variables of the
 * programs it will serve, Program.variables), it reads and converts just those, so a value no expression reads
 * is never built (a getter of `values` is not called) nor converted.
 */
export function activation(
  environment: CelEnvironment, values: Readonly<Record<string, unknown>>, only?: Iterable<string>,
  fieldsRead?: ReadonlyMap<string, ReadonlySet<string>>,
): Activation {
  const out: Record<string, unknown> = {};
  for (const name of only ?? Object.keys(values)) {
    if (!Object.hasOwn(values, name)) continue;
    let v = values[name];
    if (v === undefined) continue;
    const fields = fieldsRead?.get(name);
    if (fields !== undefined) v = selectedFields(v, fields);
    const t = environment.variables.get(name);
    out[name] = t === undefined ? toDynValue(v) : toCelValue(v, t);
  }
  return { values: out };
}

/**
 * The `fields` of JSON object `v` (others as they are): for a variable read only through those field selections,
 * the rest of it would be converted for nothing (a large object's metadata, say).
 */
function selectedFields(v: unknown, fields: ReadonlySet<string>): unknown {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
  const source = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const f of fields) if (Object.hasOwn(source, f)) out[f] = source[f];
  return out;
}

/** Why an evaluation failed. */
export interface EvaluationError {
  /** `cost`: the cost limit was passed; `runtime`: the expression failed on its data. */
  readonly kind: 'cost' | 'runtime';
  readonly message: string;
}

/** The outcome of an evaluation, with the cost it used (up to the point of failure). */
export type EvaluationResult = Result<unknown, EvaluationError> & { readonly cost: number };

/** Options of {@link evaluate}. */
export interface EvaluateOptions {
  /** The cost limit of this evaluation; defaults to {@link perCallLimit}. */
  readonly costLimit?: number;
}

const internalName = new RegExp(`${internalPrefix}(\\w+)`, 'g');

function failure(e: unknown): EvaluationError {
  if (e instanceof HaltEvaluation && e.reason === 'cost') return { kind: 'cost', message: e.message };
  const err = e as { summary?: string; message?: string };
  const message = err?.summary ?? err?.message ?? String(e);
  // cel-js capitalizes what cel-go words in lower case (`no such key: x`).
  return { kind: 'runtime', message: message.replace(internalName, '$1').replace(/^No such key: /, 'no such key: ') };
}

function run(program: Program, input: Activation, limit: number, decisions: DecisionCache): { state: EvaluationState; result: EvaluationResult } {
  const state = new EvaluationState(limit, decisions);
  let value: unknown;
  try {
    value = withEvaluation(state, () => program.evaluateTree(input.values as Record<string, unknown>));
  } catch (e) {
    return { state, result: { ...fail(failure(state.halted ?? e)), cost: state.cost } };
  }
  // A halt swallowed by `||`, `&&` or a quantifier still ends the evaluation.
  if (state.halted !== undefined) return { state, result: { ...fail(failure(state.halted)), cost: state.cost } };
  if (value instanceof Promise) return { state, result: { ...fail({ kind: 'runtime', message: 'asynchronous evaluation is not supported' }), cost: state.cost } };
  return { state, result: { ...ok(value), cost: state.cost } };
}

/**
 * Evaluates `program` with the variable values of `input`, halting when its cost passes the limit. An authorizer in
 * the activation must answer at once here; {@link evaluateAsync} waits for one that answers later.
 */
export function evaluate(program: Program, input: Activation, options: EvaluateOptions = {}): EvaluationResult {
  const { state, result } = run(program, input, options.costLimit ?? perCallLimit, new Map());
  if (state.halted?.reason === 'authorization') {
    return { ...fail({ kind: 'runtime', message: 'the authorizer did not answer at once; use evaluateAsync' }), cost: state.cost };
  }
  return result;
}

/**
 * Evaluates `program` as {@link evaluate} does, waiting for authorization decisions the authorizer gives later: the
 * evaluation stops at the first such check, waits for the answer and starts again with it known.
 */
export async function evaluateAsync(program: Program, input: Activation, options: EvaluateOptions = {}): Promise<EvaluationResult> {
  const decisions: DecisionCache = new Map();
  for (;;) {
    const { state, result } = run(program, input, options.costLimit ?? perCallLimit, decisions);
    if (state.halted?.reason !== 'authorization') return result;
    await Promise.all(state.pending);
  }
}
