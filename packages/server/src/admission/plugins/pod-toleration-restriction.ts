/**
 * PodTolerationRestriction (plugin/pkg/admission/podtolerationrestriction): a new pod gets its namespace's default
 * tolerations (annotation `scheduler.alpha.<domain>/defaultTolerations`, a JSON array; the configuration's
 * `default` when the namespace has none) merged into its own, and every non-BestEffort pod tolerates the
 * `memory-pressure` NoSchedule taint; then its tolerations must lie within the namespace's whitelist (annotation
 * `scheduler.alpha.<domain>/tolerationsWhitelist`, else the configuration's `whitelist`).
 */
import { fail, failure, type Names, ok, type Result } from '@svc-apiserver/api';
import { parseQuantity } from '../../meta/quantity.js';
import { configurationError, versionedConfiguration } from '../plugin-configuration.js';
import { annotationsOf, asObject, childObject, containersOf, type Json } from '../object-access.js';
import { dependencyHolder } from '../plugin-dependencies.js';
import {
  admitted, refused, type AdmissionAttributes, type AdmissionResult, type InitializablePlugin, type PluginConfigurationError, type PluginInit,
} from '../plugin.js';
import { mergeTolerations, parseTolerations, tolerationsOf, tolerationsWithin } from '../tolerations.js';

/** The plugin's name. */
export const podTolerationRestrictionPluginName = 'PodTolerationRestriction';

/** True for a pod without cpu or memory requests or limits (GetPodQOS BestEffort). */
export function isBestEffort(spec: Json): boolean {
  for (const { container } of containersOf(spec, ['containers', 'initContainers'])) {
    const resources = asObject(container['resources']) ?? {};
    for (const list of ['requests', 'limits']) {
      const values = asObject(resources[list]) ?? {};
      for (const name of ['cpu', 'memory']) {
        const q = parseQuantity(values[name]);
        if (q !== undefined && q.nano > 0n) return false;
      }
    }
  }
  return true;
}

/** Creates the plugin with its configuration (kind Configuration of `podtolerationrestriction.admission.<suffix>/v1alpha1`). */
export function podTolerationRestrictionPlugin(names: Names, init?: PluginInit): Result<InitializablePlugin, PluginConfigurationError> {
  const read = versionedConfiguration(podTolerationRestrictionPluginName, init?.configuration(podTolerationRestrictionPluginName),
    [`${names.group('podtolerationrestriction.admission')}/v1alpha1`], 'Configuration');
  if (!read.ok) return read;
  const clusterDefault = read.value?.['default'] === undefined ? [] : parseTolerations(read.value['default']);
  const clusterWhitelist = read.value?.['whitelist'] === undefined ? [] : parseTolerations(read.value['whitelist']);
  if (clusterDefault === undefined) return configurationError(podTolerationRestrictionPluginName, 'default must be a list of tolerations');
  if (clusterWhitelist === undefined) return configurationError(podTolerationRestrictionPluginName, 'whitelist must be a list of tolerations');
  const deps = dependencyHolder(podTolerationRestrictionPluginName);
  const defaultsAnnotation = names.domain('defaultTolerations', 'scheduler.alpha');
  const whitelistAnnotation = names.domain('tolerationsWhitelist', 'scheduler.alpha');
  const memoryPressure = names.domain('memory-pressure', 'node');

  /** A namespace annotation's tolerations: undefined when absent, a failure when it is not a JSON list of tolerations. */
  const annotated = async (namespace: string, key: string): Promise<Result<Json[] | undefined, string>> => {
    const d = deps.get();
    const ns = await d.getNamespace(namespace, { cached: true }) ?? await d.getNamespace(namespace);
    const text = annotationsOf(ns)[key];
    if (text === undefined) return ok(undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      return fail((e as Error).message);
    }
    const tolerations = parseTolerations(parsed);
    return tolerations === undefined ? fail(`${key} must be a JSON list of tolerations`) : ok(tolerations);
  };
  const ignored = (a: AdmissionAttributes): boolean => a.group !== '' || a.resource !== 'pods' || a.subresource !== '' || a.object === undefined;
  // kube returns these as plain errors, which reach the client as 500 with an empty reason.
  const plainError = (message: string): AdmissionResult => refused(failure('Unknown', message, undefined, 500));

  const validate = async (a: AdmissionAttributes): Promise<AdmissionResult> => {
    if (ignored(a)) return admitted;
    const tolerations = tolerationsOf(childObject(a.object!, 'spec'));
    if (tolerations.length === 0) return admitted;
    const read = await annotated(a.namespace, whitelistAnnotation);
    if (!read.ok) return plainError(read.error);
    const fromNamespace = read.value;
    const scope = fromNamespace === undefined ? 'cluster' : 'namespace';
    const whitelist = fromNamespace ?? clusterWhitelist;
    if (!tolerationsWithin(tolerations, whitelist)) {
      return plainError(`pod tolerations (possibly merged with namespace default tolerations) conflict with its ${scope} whitelist`);
    }
    return admitted;
  };
  return ok({
    name: podTolerationRestrictionPluginName,
    enabledByDefault: false,
    initialize: (d) => deps.set(d),
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    async admit(a) {
      if (ignored(a)) return admitted;
      const spec = childObject(a.object!, 'spec');
      const extra: Json[] = [];
      if (a.operation === 'CREATE') {
        const read = await annotated(a.namespace, defaultsAnnotation);
        if (!read.ok) return plainError(read.error);
        const fromNamespace = read.value;
        extra.push(...structuredClone(fromNamespace ?? clusterDefault));
      }
      if (!isBestEffort(spec)) extra.push({ key: memoryPressure, operator: 'Exists', effect: 'NoSchedule' });
      if (extra.length > 0) spec['tolerations'] = mergeTolerations(tolerationsOf(spec), extra);
      return validate(a);
    },
    validate,
  });
}
