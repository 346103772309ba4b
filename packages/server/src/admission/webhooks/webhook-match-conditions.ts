/**
 * The expression-language evaluator of webhooks' `matchConditions` (alpha in 1.27 behind the
 * AdmissionWebhookMatchConditions gate), plugged into the dispatchers' seam: the conditions see the request as the
 * webhook would be sent it (the invocation's resource and kind), and `authorizer` asks the server's authorizer for
 * the requesting user.
 */
import { fail, ok } from '@svc-apiserver/api';
import type { Authorizer } from '../../request/authorizer.js';
import { admissionExpressionValues } from '../expressions/admission-activation.js';
import { evaluateMatchConditions, matchConditionsOf } from '../../cel/match-conditions.js';
import type { MatchConditionEvaluator } from './webhook-environment.js';

/** The evaluator, asking `authorizer()` (late-bound: the server builds its authorizer after admission). */
export function celMatchConditionEvaluator(authorizer: () => Authorizer | undefined): MatchConditionEvaluator {
  return async (webhook, a, invocation) => {
    const values = admissionExpressionValues(a, authorizer(), invocation);
    const outcome = await evaluateMatchConditions(matchConditionsOf(webhook.matchConditions), values, false);
    switch (outcome.kind) {
      case 'match': return ok(true);
      case 'skip': return ok(false);
      case 'error': return fail(outcome.message);
    }
  };
}
