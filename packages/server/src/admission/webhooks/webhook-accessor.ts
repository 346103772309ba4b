/**
 * One webhook of a Mutating- or ValidatingWebhookConfiguration, read once per version of its configuration
 * (k8s.io/apiserver/pkg/admission/plugin/webhook.WebhookAccessor): v1's defaults filled where the stored object
 * lacks them, selectors parsed, and a uid naming it across reinvocations.
 */
import { labelSelectorFromMeta, type KubeObject, type LabelSelector } from '@svc-apiserver/api';
import type { ClientConfig } from '../../outbound/client-config.js';
import { asObject, objectsOf, stringOf, type Json } from '../object-access.js';

/** A rule of a webhook (RuleWithOperations). */
export interface WebhookRule {
  readonly operations: readonly string[];
  readonly apiGroups: readonly string[];
  readonly apiVersions: readonly string[];
  readonly resources: readonly string[];
  /** `*`, `Cluster` or `Namespaced`. */
  readonly scope: string;
}

/** A parsed selector: everything, nothing, or requirements; `invalid` when it does not parse. */
export type ParsedSelector = LabelSelector | 'everything' | 'nothing' | { readonly invalid: string };

/** One webhook. */
export interface WebhookAccessor {
  /** `<configuration>/<webhook name>/<index>`: unique while the configuration lives. */
  readonly uid: string;
  readonly configurationName: string;
  readonly name: string;
  readonly type: 'mutating' | 'validating';
  readonly rules: readonly WebhookRule[];
  readonly failurePolicy: 'Fail' | 'Ignore';
  readonly matchPolicy: 'Exact' | 'Equivalent';
  readonly namespaceSelector: ParsedSelector;
  readonly objectSelector: ParsedSelector;
  readonly sideEffects: string;
  readonly timeoutSeconds: number;
  readonly admissionReviewVersions: readonly string[];
  readonly clientConfig: ClientConfig;
  readonly reinvocationPolicy: 'Never' | 'IfNeeded';
  /** The webhook's match conditions as written (evaluated by the expression-language engine where present). */
  readonly matchConditions: readonly Json[];
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/** A selector as kube parses it; an absent selector (v1 defaults it to `{}`) selects everything. */
export function parseSelector(value: unknown): ParsedSelector {
  const o = asObject(value);
  if (o === undefined) return 'everything';
  const parsed = labelSelectorFromMeta(o as never);
  if (!parsed.ok) return { invalid: parsed.error };
  if (parsed.value === 'nothing') return 'nothing';
  return parsed.value.requirements.length === 0 ? 'everything' : parsed.value;
}

/** The webhooks of a configuration object. */
export function webhookAccessors(configuration: KubeObject, type: 'mutating' | 'validating'): WebhookAccessor[] {
  const configurationName = configuration.metadata?.name ?? '';
  return objectsOf(configuration['webhooks']).map((w, index) => {
    const clientConfig = asObject(w['clientConfig']) ?? {};
    const service = asObject(clientConfig['service']);
    const failurePolicy = w['failurePolicy'] === 'Ignore' ? 'Ignore' : 'Fail';
    return {
      uid: `${configurationName}/${stringOf(w['name'])}/${index}`,
      configurationName,
      name: stringOf(w['name']),
      type,
      rules: objectsOf(w['rules']).map((r) => ({
        operations: strings(r['operations']), apiGroups: strings(r['apiGroups']), apiVersions: strings(r['apiVersions']),
        resources: strings(r['resources']), scope: typeof r['scope'] === 'string' ? r['scope'] : '*',
      })),
      failurePolicy,
      matchPolicy: w['matchPolicy'] === 'Exact' ? 'Exact' : 'Equivalent',
      namespaceSelector: parseSelector(w['namespaceSelector']),
      objectSelector: parseSelector(w['objectSelector']),
      sideEffects: stringOf(w['sideEffects']),
      timeoutSeconds: typeof w['timeoutSeconds'] === 'number' ? w['timeoutSeconds'] : 10,
      admissionReviewVersions: strings(w['admissionReviewVersions']),
      clientConfig: {
        ...(typeof clientConfig['url'] === 'string' ? { url: clientConfig['url'] } : {}),
        ...(service !== undefined ? {
          service: {
            namespace: stringOf(service['namespace']), name: stringOf(service['name']),
            ...(typeof service['path'] === 'string' ? { path: service['path'] } : {}),
            port: typeof service['port'] === 'number' ? service['port'] : 443,
          },
        } : {}),
        ...(typeof clientConfig['caBundle'] === 'string' ? { caBundle: clientConfig['caBundle'] } : {}),
      },
      reinvocationPolicy: w['reinvocationPolicy'] === 'IfNeeded' ? 'IfNeeded' : 'Never',
      matchConditions: objectsOf(w['matchConditions']),
    };
  });
}
