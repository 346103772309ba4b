/**
 * DefaultIngressClass (plugin/pkg/admission/network/defaultingressclass): a new Ingress that names no class (no
 * `spec.ingressClassName`, no legacy class annotation) gets the class annotated as default
 * (`ingressclass.<domain>/is-default-class: "true"`). Updates are left alone; with no default nothing changes;
 * with several defaults the Ingress is refused.
 */
import type { KubeObject, Names } from '@svc-apiserver/api';
import { admissionForbidden } from '../admission-errors.js';
import { annotationsOf, childObject } from '../object-access.js';
import { dependencyHolder } from '../plugin-dependencies.js';
import { admitted, refused, type InitializablePlugin } from '../plugin.js';

/** The plugin's name. */
export const defaultIngressClassPluginName = 'DefaultIngressClass';

/**
 * The classes annotated as default among `classes` (kube's getDefaultClass helpers of both default-class plugins):
 * the one default, undefined for none, or how many there are when several are.
 */
export function defaultClassOf(classes: readonly KubeObject[], annotationKeys: readonly string[]): KubeObject | undefined | { readonly several: number } {
  const defaults = classes.filter((c) => annotationKeys.some((k) => annotationsOf(c)[k] === 'true'));
  if (defaults.length > 1) return { several: defaults.length };
  return defaults[0];
}

/** Creates the plugin. */
export function defaultIngressClassPlugin(names: Names): InitializablePlugin {
  const deps = dependencyHolder(defaultIngressClassPluginName);
  const networking = names.group('networking');
  const defaultAnnotation = names.domain('is-default-class', 'ingressclass');
  const legacyClassAnnotation = names.domain('ingress.class');
  return {
    name: defaultIngressClassPluginName,
    enabledByDefault: true,
    initialize: (d) => deps.set(d),
    handles: (operation) => operation === 'CREATE',
    actsOn: (group, resource) => group === networking && resource === 'ingresses',
    async admit(a) {
      if (a.group !== networking || a.resource !== 'ingresses' || a.subresource !== '' || a.object === undefined) return admitted;
      const spec = childObject(a.object, 'spec');
      if (spec['ingressClassName'] !== undefined && spec['ingressClassName'] !== null) return admitted;
      if (legacyClassAnnotation in annotationsOf(a.object)) return admitted;
      const classes = await deps.informer(networking, 'ingressclasses');
      const found = defaultClassOf(classes?.list() ?? [], [defaultAnnotation]);
      if (found === undefined) return admitted;
      if ('several' in found) {
        return refused(admissionForbidden(a, `Internal error occurred: ${found.several} default IngressClasses were found, only 1 allowed`));
      }
      spec['ingressClassName'] = found.metadata?.name ?? '';
      return admitted;
    },
  };
}
