/**
 * MutatingAdmissionWebhook and ValidatingAdmissionWebhook (k8s.io/apiserver/pkg/admission/plugin/webhook): the
 * plugins that call the webhooks of the Mutating- and ValidatingWebhookConfigurations (see webhooks/). Each may
 * be given a WebhookAdmissionConfiguration whose `kubeConfigFile` holds the credentials presented to webhooks by
 * host. Writes of the admission configuration kinds themselves are never sent to webhooks. With the
 * AdmissionWebhookMatchConditions gate, webhooks' `matchConditions` are evaluated in the expression language.
 */
import { type Names, ok, type Result } from '@svc-apiserver/api';
import { dependencyHolder } from '../plugin-dependencies.js';
import {
  admitted, type AdmissionAttributes, type AdmissionResult, type InitializablePlugin, type PluginConfigurationError, type PluginInit,
} from '../plugin.js';
import { dispatchMutating, dispatchValidating, exemptFromWebhooks } from '../webhooks/webhook-dispatch.js';
import { webhookCredentials, webhookEnvironment, type MatchConditionEvaluator, type WebhookEnvironment } from '../webhooks/webhook-environment.js';
import { webhookSource, type WebhookSource } from '../webhooks/webhook-source.js';
import type { WebhookAccessor } from '../webhooks/webhook-accessor.js';
import { celMatchConditionEvaluator } from '../webhooks/webhook-match-conditions.js';
import { createMetricsRegistry } from '../../metrics/metrics-registry.js';
import { admissionMetrics } from '../admission-metrics.js';

/** The plugins' names. */
export const mutatingAdmissionWebhookPluginName = 'MutatingAdmissionWebhook';
export const validatingAdmissionWebhookPluginName = 'ValidatingAdmissionWebhook';

/** A webhook plugin with the seam for match conditions. */
export interface WebhookPlugin extends InitializablePlugin {
  /** Plugs in the evaluator of webhooks' match conditions. */
  setMatchConditionEvaluator(evaluator: MatchConditionEvaluator): void;
}

function webhookPlugin(type: 'mutating' | 'validating', names: Names, init?: PluginInit): Result<WebhookPlugin, PluginConfigurationError> {
  const name = type === 'mutating' ? mutatingAdmissionWebhookPluginName : validatingAdmissionWebhookPluginName;
  const credentials = webhookCredentials(name, init?.configuration(name), names);
  if (!credentials.ok) return credentials;
  const authInfo = credentials.value;
  const metrics = init?.metrics ?? admissionMetrics(createMetricsRegistry());
  const deps = dependencyHolder(name);
  const admissionRegistration = names.group('admissionregistration');
  let source: WebhookSource | undefined;
  let env: WebhookEnvironment | undefined;
  let evaluator: MatchConditionEvaluator | undefined;
  const dispatch = (a: AdmissionAttributes, hooks: readonly WebhookAccessor[], e: WebhookEnvironment) => {
    if (hooks.length === 0 || exemptFromWebhooks(a, admissionRegistration)) return admitted;
    return type === 'mutating' ? dispatchMutating(a, hooks, e) : dispatchValidating(a, hooks, e);
  };
  const run = (a: AdmissionAttributes): AdmissionResult | Promise<AdmissionResult> => {
    if (source === undefined || env === undefined) throw new Error(`${name} used before initialize`);
    // Without webhooks (the common case) the answer needs no waiting.
    const known = source.current();
    if (known !== undefined) return dispatch(a, known, env);
    const e = env;
    return source.webhooks().then((hooks) => dispatch(a, hooks, e));
  };
  return ok({
    name,
    enabledByDefault: true,
    initialize(d) {
      deps.set(d);
      source = webhookSource(deps.informers(), names, type);
      if (evaluator === undefined && init?.featureGates?.AdmissionWebhookMatchConditions === true) {
        evaluator = celMatchConditionEvaluator(() => deps.authorizer());
      }
      env = webhookEnvironment(names, metrics, deps, authInfo, evaluator);
    },
    setMatchConditionEvaluator(e) {
      evaluator = e;
      if (env !== undefined) env = { ...env, matchConditions: e };
    },
    handles: () => true,
    ...(type === 'mutating' ? { admit: run } : { validate: run }),
  });
}

/** Creates MutatingAdmissionWebhook. */
export function mutatingAdmissionWebhookPlugin(names: Names, init?: PluginInit): Result<WebhookPlugin, PluginConfigurationError> {
  return webhookPlugin('mutating', names, init);
}

/** Creates ValidatingAdmissionWebhook. */
export function validatingAdmissionWebhookPlugin(names: Names, init?: PluginInit): Result<WebhookPlugin, PluginConfigurationError> {
  return webhookPlugin('validating', names, init);
}
