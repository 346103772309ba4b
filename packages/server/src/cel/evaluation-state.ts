/**
 * The state of one evaluation: the runtime cost counter that halts evaluation over its limit (cel-go's CostTracker
 * with a CostLimit, whose error is "operation cancelled: actual cost limit exceeded"), and the authorization decisions
 * the authorizer library asked for. Evaluation is synchronous, so the state of the running evaluation is one module
 * variable that library functions read.
 */
import { EvaluationError } from '@marcbachmann/cel-js';
import type { CelAuthorizationAttributes, CelAuthorizationDecision, CelAuthorizer } from './cel-authorizer.js';
import { costLimitExceededMessage } from './limits.js';

/** Why an evaluation stopped before its end. */
export type HaltReason = 'cost' | 'authorization';

/** Thrown through the engine to stop an evaluation; every node evaluated after it throws again. */
export class HaltEvaluation extends EvaluationError {
  constructor(readonly reason: HaltReason) {
    super(reason === 'cost' ? costLimitExceededMessage : 'authorization decision pending');
  }
}

/** Authorization decisions by their attributes, kept across the retries of one asynchronous evaluation. */
export type DecisionCache = Map<string, CelAuthorizationDecision>;

/** The state of one evaluation. */
export class EvaluationState {
  cost = 0;
  halted: HaltEvaluation | undefined;
  readonly pending: Promise<unknown>[] = [];

  constructor(readonly limit: number, readonly decisions: DecisionCache = new Map()) {}

  /** Adds `amount` to the cost; over the limit the evaluation halts. */
  charge(amount: number): void {
    this.cost += amount;
    if (this.cost > this.limit) this.halt('cost');
  }

  /** Stops the evaluation. */
  halt(reason: HaltReason): never {
    this.halted ??= new HaltEvaluation(reason);
    throw this.halted;
  }

  /**
   * The decision of `authorizer` on `attributes`: cached, answered at once, or (for an authorizer that answers later)
   * recorded as pending, halting this run so that the caller can wait for it and evaluate again.
   */
  authorize(authorizer: CelAuthorizer, attributes: CelAuthorizationAttributes): CelAuthorizationDecision {
    const key = JSON.stringify(attributes);
    const cached = this.decisions.get(key);
    if (cached !== undefined) return cached;
    const answer = authorizer(attributes);
    if (!(answer instanceof Promise)) {
      this.decisions.set(key, answer);
      return answer;
    }
    this.pending.push(answer.then(
      (d) => this.decisions.set(key, d),
      (e: unknown) => this.decisions.set(key, { decision: 'no-opinion', reason: (e as Error)?.message ?? String(e) }),
    ));
    return this.halt('authorization');
  }
}

let current: EvaluationState | undefined;

/** The state of the evaluation running now, if any. */
export function currentEvaluation(): EvaluationState | undefined {
  return current;
}

/** Runs `fn` as evaluation `state`. */
export function withEvaluation<T>(state: EvaluationState, fn: () => T): T {
  const previous = current;
  current = state;
  try {
    return fn();
  } finally {
    current = previous;
  }
}
