/**
 * PodNodeSelector (plugin/pkg/admission/podnodeselector): the node selector of a namespace — its
 * `scheduler.alpha.<domain>/node-selector` annotation, else the configured `clusterDefaultNodeSelector` — is merged
 * into every new pod's `spec.nodeSelector`; a pod whose selector conflicts with it is refused, and so is one whose
 * selector leaves the namespace's allowed selector from the configuration (`podNodeSelectorPluginConfig`, one
 * `k=v,...` entry per namespace).
 */
import { failure, forbidden, type Names, ok, type Result } from '@svc-apiserver/api';
import { configFields, configurationError } from '../plugin-configuration.js';
import { labelsConflict, labelsWithin, parseLabelMap } from '../label-map.js';
import { annotationsOf, childObject, stringMap } from '../object-access.js';
import { dependencyHolder } from '../plugin-dependencies.js';
import { admitted, refused, type AdmissionAttributes, type AdmissionResult, type InitializablePlugin, type PluginConfigurationError, type PluginInit } from '../plugin.js';

/** The plugin's name. */
export const podNodeSelectorPluginName = 'PodNodeSelector';

/** The configuration key of the cluster-wide default. */
const clusterDefaultKey = 'clusterDefaultNodeSelector';

/** Creates the plugin with its configuration (a document with `podNodeSelectorPluginConfig`). */
export function podNodeSelectorPlugin(names: Names, init?: PluginInit): Result<InitializablePlugin, PluginConfigurationError> {
  const raw = init?.configuration(podNodeSelectorPluginName);
  const entries = raw === undefined ? {} : configFields(configFields(raw)?.['podNodeSelectorPluginConfig']);
  if (entries === undefined) {
    const refusal = configurationError(podNodeSelectorPluginName, 'podNodeSelectorPluginConfig must be a map of namespace to selector');
    return refusal;
  }
  const selectors = stringMap(entries);
  if (Object.keys(selectors).length !== Object.keys(entries).length) {
    return configurationError(podNodeSelectorPluginName, 'podNodeSelectorPluginConfig values must be strings');
  }
  for (const [ns, text] of Object.entries(selectors)) {
    const parsed = parseLabelMap(text);
    if (!parsed.ok) return configurationError(podNodeSelectorPluginName, `${ns}: ${parsed.error}`);
  }
  const deps = dependencyHolder(podNodeSelectorPluginName);
  const annotation = names.domain('node-selector', 'scheduler.alpha');

  /** The namespace's selector: its annotation, else the cluster default; an unparsable annotation fails. */
  const namespaceSelector = async (a: AdmissionAttributes): Promise<{ selector: Record<string, string> } | { refusal: AdmissionResult }> => {
    const d = deps.get();
    const namespace = await d.getNamespace(a.namespace, { cached: true }) ?? await d.getNamespace(a.namespace);
    const annotated = annotationsOf(namespace)[annotation];
    const parsed = parseLabelMap(annotated ?? selectors[clusterDefaultKey] ?? '');
    if (!parsed.ok) return { refusal: refused(failure('Unknown', parsed.error, undefined, 500)) };
    return { selector: parsed.value };
  };
  const ignored = (a: AdmissionAttributes): boolean => a.group !== '' || a.resource !== 'pods' || a.subresource !== '' || a.object === undefined;
  const deny = (a: AdmissionAttributes, why: string) => refused(forbidden({ group: '', resource: 'pods' }, a.object?.metadata?.name ?? '', why));

  const check = async (a: AdmissionAttributes, merge: boolean): Promise<AdmissionResult> => {
    const namespaced = await namespaceSelector(a);
    if ('refusal' in namespaced) return namespaced.refusal;
    const found = namespaced.selector;
    const spec = childObject(a.object!, 'spec');
    const podSelector = stringMap(spec['nodeSelector']);
    if (labelsConflict(found, podSelector)) return deny(a, 'pod node label selector conflicts with its namespace node label selector');
    const merged = { ...found, ...podSelector };
    if (merge && Object.keys(merged).length > 0) spec['nodeSelector'] = merged;
    const whitelist = parseLabelMap(selectors[a.namespace] ?? '');
    if (whitelist.ok && !labelsWithin(merge ? merged : podSelector, whitelist.value)) {
      return deny(a, 'pod node label selector labels conflict with its namespace whitelist');
    }
    return admitted;
  };
  return ok({
    name: podNodeSelectorPluginName,
    enabledByDefault: false,
    initialize: (d) => deps.set(d),
    handles: (operation) => operation === 'CREATE',
    admit: (a) => (ignored(a) ? admitted : check(a, true)),
    validate: (a) => (ignored(a) ? admitted : check(a, false)),
  });
}
