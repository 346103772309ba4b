/**
 * What the webhook dispatchers need from the server, assembled once per plugin: the names, the registry's served
 * definitions (equivalent resources and their conversions, schemas of patched objects), namespace labels from the
 * watch cache, the clientConfig resolvers (Service endpoints from informers; credentials from the
 * `kubeConfigFile` of WebhookAdmissionConfiguration), the metrics, and the seam where match conditions are
 * evaluated.
 */
import { fail, type KubeObject, type Names, ok, type Result, type Status } from '@svc-apiserver/api';
import { anonymousAuthInfo, authInfoResolver, type AuthInfoResolver } from '../../outbound/auth-info-resolver.js';
import type { ClientConfigResolvers } from '../../outbound/client-config.js';
import { loadKubeconfig } from '../../outbound/kubeconfig-file.js';
import { serviceResolver } from '../../outbound/service-resolver.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import type { AdmissionMetrics } from '../admission-metrics.js';
import { labelsOf } from '../object-access.js';
import { configFields, configurationError } from '../plugin-configuration.js';
import type { DependencyHolder } from '../plugin-dependencies.js';
import type { AdmissionAttributes, PluginConfigurationError } from '../plugin.js';
import type { WebhookAccessor } from './webhook-accessor.js';
import { webhookClient, type WebhookClient } from './webhook-call.js';
import { namespaceNotFound, type Invocation, type MatchContext } from './webhook-matcher.js';

/**
 * Evaluates a webhook's match conditions for a request (the expression-language engine provides it): true calls
 * the webhook, false does not, a failure is handled by the failure policy.
 */
export type MatchConditionEvaluator = (
  webhook: WebhookAccessor, attributes: AdmissionAttributes, invocation: Invocation,
) => Promise<Result<boolean, string>>;

/** The environment of a dispatcher. */
export interface WebhookEnvironment {
  readonly names: Names;
  readonly metrics: AdmissionMetrics;
  readonly match: MatchContext;
  readonly resolvers: ClientConfigResolvers;
  /** The prepared client of a webhook, made once per webhook of a configuration version. */
  client(w: WebhookAccessor): WebhookClient;
  /** The served definition of a resource version, for conversions and schemas. */
  lookup(group: string, version: string, resource: string): ResourceDef | undefined;
  /** Checks a patched object's field types against its schema: the first type error, or undefined. */
  typeError(def: ResourceDef, subresource: string, object: KubeObject): string | undefined;
  readonly matchConditions?: MatchConditionEvaluator;
}

/**
 * Reads the plugin's WebhookAdmissionConfiguration (`apiserver.config.<suffix>/v1` WebhookAdmissionConfiguration,
 * or `apiserver.<suffix>/v1alpha1` WebhookAdmission): the credentials by host of its `kubeConfigFile`.
 */
export function webhookCredentials(plugin: string, raw: unknown, names: Names): Result<AuthInfoResolver, PluginConfigurationError> {
  if (raw === undefined || raw === null) return ok(anonymousAuthInfo);
  const doc = configFields(raw);
  const accepted = [[`${names.group('apiserver.config')}/v1`, 'WebhookAdmissionConfiguration'], [`${names.group('apiserver')}/v1alpha1`, 'WebhookAdmission']];
  if (doc === undefined || !accepted.some(([v, k]) => doc['apiVersion'] === v && doc['kind'] === k)) {
    return configurationError(plugin, `expected ${accepted.map(([v, k]) => `${v} ${k}`).join(' or ')}`);
  }
  const file = doc['kubeConfigFile'];
  if (file === undefined || file === null || file === '') return ok(anonymousAuthInfo);
  if (typeof file !== 'string') return configurationError(plugin, 'kubeConfigFile must be a path');
  const loaded = loadKubeconfig(file);
  if (!loaded.ok) return configurationError(plugin, loaded.error);
  return ok(authInfoResolver(loaded.value));
}

/** Builds the environment from a plugin's dependencies. */
export function webhookEnvironment(
  names: Names, metrics: AdmissionMetrics, deps: DependencyHolder, authInfo: AuthInfoResolver, matchConditions?: MatchConditionEvaluator,
): WebhookEnvironment {
  const discovery = names.group('discovery');
  const registry = () => deps.registry();
  const match: MatchContext = {
    async namespaceLabels(name) {
      const d = deps.get();
      const ns = await d.getNamespace(name, { cached: true }) ?? await d.getNamespace(name);
      return ns === undefined ? fail(namespaceNotFound(name) as Status) : ok(labelsOf(ns));
    },
    equivalents(group, version, resource) {
      const all = registry().all();
      const self = all.find((d) => d.group === group && d.version === version && d.resource === resource);
      if (self === undefined) return { others: [] };
      return { self, others: all.filter((d) => d !== self && d.keyPrefix === self.keyPrefix) };
    },
  };
  const services = serviceResolver({
    async service(namespace, name) {
      return (await deps.informer('', 'services'))?.get(namespace, name);
    },
    async endpoints(namespace, name) {
      return (await deps.informer('', 'endpoints'))?.get(namespace, name);
    },
    async endpointSlices(namespace, serviceName) {
      const slices = await deps.informer(discovery, 'endpointslices');
      const label = `${discovery}/service-name`;
      return (slices?.listIn(namespace) ?? []).filter((s) => s.metadata?.labels?.[label] === serviceName);
    },
  });
  const resolvers = { services, authInfo };
  // Accessors live as long as their configuration's version, and their clients with them.
  const clients = new WeakMap<WebhookAccessor, WebhookClient>();
  return {
    names, metrics, match, resolvers,
    client(w) {
      let client = clients.get(w);
      if (client === undefined) clients.set(w, (client = webhookClient(w, resolvers)));
      return client;
    },
    lookup: (group, version, resource) => registry().lookup(group, version, resource),
    typeError(def, subresource, object) {
      const sub = subresource === '' ? undefined : def.subresources.find((s) => s.name === subresource);
      const schemaName = sub === undefined || sub.kind === def.kind ? def.schemaName : sub.schemaName;
      if (schemaName === undefined) return undefined;
      const result = registry().validator.validate(schemaName, object);
      return result.errors.find((e) => e.type === 'FieldValueTypeInvalid')?.detail;
    },
    ...(matchConditions === undefined ? {} : { matchConditions }),
  };
}
