/**
 * Evaluating a CRD's compiled validation rules on a custom object (apiextensions-apiserver 1.27's CEL validator,
 * document 3 §Expression language and §Errors): the object is walked along the rule tree; at each node that holds a
 * value its rules run with `self` bound to the value and, for transition rules, `oldSelf` to the old object's
 * value at the same place (matched by property name, map key, or the keys of a `map` list) — a transition rule
 * with no old value does not run. A rule that yields false fails with its message, the result of its
 * `messageExpression`, or `failed rule: <rule>`; an evaluation error, an evaluation over the per-call cost limit
 * and the whole object's runtime budget running out fail as kube words them. Errors carry the node's field path
 * (`<nil>` for the root, as kube prints the root path) and its schema type as the value.
 */
import { fieldError, type FieldError } from '@svc-apiserver/api';
import { activation, evaluate, type Activation } from '../../cel/evaluate.js';
import { costLimitExceededMessage, outOfBudgetMessage, runtimeCelCostBudget } from '../../cel/limits.js';
import type { CelEnvironment } from '../../cel/environment.js';
import { isRecord, maxWalkDepth } from '../schema/json-schema-props.js';
import type { CompiledRule, RuleNode } from './compiled-rules.js';

interface Budget {
  remaining: number;
  exhausted: boolean;
}

const rootPath = '<nil>';

const child = (path: string, key: string): string => (path === rootPath ? key : `${path}.${key}`);

/**
 * Validates `object` (and, on an update, against `old`) with the rules of `root`; `budget` is the runtime cost the
 * object's rules may spend together (RuntimeCELCostBudget by default).
 */
export function validateRules(root: RuleNode, object: unknown, old: unknown, budget = runtimeCelCostBudget): FieldError[] {
  const errors: FieldError[] = [];
  walk(root, object, old, rootPath, errors, { remaining: budget, exhausted: false }, 0);
  return errors;
}

function walk(node: RuleNode, value: unknown, old: unknown, path: string, errors: FieldError[], budget: Budget, depth: number): void {
  if (value === undefined || value === null || budget.exhausted || depth > maxWalkDepth) return;
  if (node.rules.length > 0) runRules(node, value, old, path, errors, budget);
  if (node.properties !== undefined && isRecord(value)) {
    const oldRecord = isRecord(old) ? old : undefined;
    for (const [key, sub] of node.properties) {
      if (!Object.hasOwn(value, key)) continue;
      walk(sub, value[key], oldRecord?.[key], child(path, key), errors, budget, depth + 1);
    }
  }
  if (node.additionalProperties !== undefined && isRecord(value)) {
    const oldRecord = isRecord(old) ? old : undefined;
    for (const [key, v] of Object.entries(value)) {
      walk(node.additionalProperties, v, oldRecord?.[key], `${path === rootPath ? '' : path}[${key}]`, errors, budget, depth + 1);
    }
  }
  if (node.items !== undefined && Array.isArray(value)) {
    const oldItems = correlate(node.mapKeys, value, old);
    value.forEach((item, i) => walk(node.items!, item, oldItems?.(item), `${path === rootPath ? '' : path}[${i}]`, errors, budget, depth + 1));
  }
}

/** For a `map` list, finds the old item with the same keys; other lists are not correlated. */
function correlate(keys: readonly string[] | undefined, _value: unknown[], old: unknown): ((item: unknown) => unknown) | undefined {
  if (keys === undefined || !Array.isArray(old)) return undefined;
  const keyOf = (item: unknown): string | undefined => (isRecord(item) ? JSON.stringify(keys.map((k) => item[k] ?? null)) : undefined);
  const byKey = new Map<string, unknown>();
  for (const o of old) {
    const k = keyOf(o);
    if (k !== undefined) byKey.set(k, o);
  }
  return (item) => {
    const k = keyOf(item);
    return k === undefined ? undefined : byKey.get(k);
  };
}

/** Activations per environment for one node: the rules of a node share their variables' values. */
function activations(value: unknown, old: unknown): (env: CelEnvironment) => Activation {
  const made = new Map<CelEnvironment, Activation>();
  return (env) => {
    let a = made.get(env);
    if (a === undefined) {
      a = activation(env, { self: value, oldSelf: old ?? undefined });
      made.set(env, a);
    }
    return a;
  };
}

const ruleErrorString = (r: CompiledRule): string => r.message ?? r.rule.trim();

function runRules(node: RuleNode, value: unknown, old: unknown, path: string, errors: FieldError[], budget: Budget): void {
  const activationFor = activations(value, old);
  for (const r of node.rules) {
    if (r.transition && (old === undefined || old === null)) continue;
    const result = evaluate(r.program, activationFor(r.program.environment));
    budget.remaining -= result.cost;
    if (budget.remaining < 0) {
      errors.push(fieldError.invalid(path, node.type, outOfBudgetMessage));
      budget.exhausted = true;
      return;
    }
    if (!result.ok) {
      if (result.error.kind === 'cost' || result.error.message.startsWith(costLimitExceededMessage)) {
        errors.push(fieldError.invalid(path, node.type, `was invalid: call cost exceeds limit for rule: ${ruleErrorString(r)}`));
      } else if (result.error.message.startsWith('no such overload')) {
        errors.push(fieldError.invalid(path, node.type,
          `'${result.error.message}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(r)}`));
      } else {
        errors.push(fieldError.invalid(path, node.type, `${result.error.message} evaluating rule: ${ruleErrorString(r)}`));
      }
      continue;
    }
    if (result.value === true) continue;
    if (typeof result.value !== 'boolean') {
      errors.push(fieldError.invalid(path, node.type, `rule evaluated to non-bool for rule: ${ruleErrorString(r)}`));
      continue;
    }
    errors.push(fieldError.invalid(path, node.type, failureMessage(r, activationFor, budget) ?? `failed rule: ${r.rule.trim()}`));
    if (budget.exhausted) return;
  }
}

/**
 * The message of a failed rule: its messageExpression's result when that evaluates to a non-empty single-line
 * string, else its message (kube falls back the same way, and logs the messageExpression's error).
 */
function failureMessage(r: CompiledRule, activationFor: (env: CelEnvironment) => Activation, budget: Budget): string | undefined {
  if (r.messageProgram === undefined) return r.message;
  const m = evaluate(r.messageProgram, activationFor(r.messageProgram.environment));
  budget.remaining -= m.cost;
  if (budget.remaining < 0) {
    budget.exhausted = true;
    return outOfBudgetMessage;
  }
  if (m.ok && typeof m.value === 'string' && m.value.trim() !== '' && !/[\r\n]/.test(m.value)) return m.value.trim();
  return r.message;
}
