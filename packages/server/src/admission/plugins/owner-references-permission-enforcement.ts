/**
 * OwnerReferencesPermissionEnforcement (plugin/pkg/admission/gc): changing an object's `metadata.ownerReferences`
 * needs `delete` on the object (creating one needs nothing more: its creator could have never created it); setting
 * `blockOwnerDeletion: true` on a reference needs `update` of the owner's `finalizers` subresource, as it can hold
 * up the owner's deletion. The answer comes from the server's authorizer. Pod status writes are exempt.
 */
import type { KubeObject, Names } from '@svc-apiserver/api';
import type { AuthorizationDecision } from '../../request/authorizer.js';
import type { RequestInfo } from '../../request/request-info.js';
import { admissionForbidden } from '../admission-errors.js';
import { jsonEqual, objectsOf, stringOf, type Json } from '../object-access.js';
import { dependencyHolder } from '../plugin-dependencies.js';
import { admitted, refused, type AdmissionAttributes, type InitializablePlugin } from '../plugin.js';

/** The plugin's name. */
export const ownerReferencesPermissionEnforcementPluginName = 'OwnerReferencesPermissionEnforcement';

const ownerReferencesOf = (o: KubeObject | undefined): Json[] => objectsOf(o?.metadata?.ownerReferences);

/** References blocking deletion in `object` that did not block in `old` (kube's newBlockingOwnerDeletionRefs). */
function newBlockingReferences(object: KubeObject | undefined, old: KubeObject | undefined): Json[] {
  const blockingBefore = new Set(ownerReferencesOf(old).filter((r) => r['blockOwnerDeletion'] === true).map((r) => stringOf(r['uid'])));
  return ownerReferencesOf(object).filter((r) => r['blockOwnerDeletion'] === true && !blockingBefore.has(stringOf(r['uid'])));
}

/** A resource request as the authorizer is asked it. */
function resourceRequest(verb: string, group: string, version: string, resource: string, subresource: string, namespace: string, name: string): RequestInfo {
  return {
    isResourceRequest: true, path: '', verb, apiPrefix: group === '' ? 'api' : 'apis', apiGroup: group, apiVersion: version,
    namespace, resource, subresource, name, parts: [],
  };
}

/** `<reason>, <error>` as kube prints the authorizer's answer (`<nil>` for no error). */
const because = (d: AuthorizationDecision | undefined): string => `${d?.reason ?? ''}, ${d?.evaluationError ?? '<nil>'}`;

/** Creates the plugin. */
export function ownerReferencesPermissionEnforcementPlugin(_names: Names): InitializablePlugin {
  const deps = dependencyHolder(ownerReferencesPermissionEnforcementPluginName);
  const ask = async (a: AdmissionAttributes, info: RequestInfo): Promise<AuthorizationDecision | undefined> =>
    deps.authorizer()?.authorize({ user: a.user, info });
  return {
    name: ownerReferencesPermissionEnforcementPluginName,
    enabledByDefault: false,
    initialize: (d) => deps.set(d),
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    async validate(a) {
      if (a.object === undefined || (a.group === '' && a.resource === 'pods' && a.subresource === 'status')) return admitted;
      const changing = a.oldObject === undefined
        ? ownerReferencesOf(a.object).length > 0
        : !jsonEqual(a.object.metadata?.ownerReferences ?? [], a.oldObject.metadata?.ownerReferences ?? []);
      if (!changing) return admitted;
      if (a.operation !== 'CREATE') {
        const decision = await ask(a, resourceRequest('delete', a.group, a.version, a.resource, a.subresource, a.namespace, a.name));
        if (decision?.decision !== 'allow') {
          return refused(admissionForbidden(a, `cannot set an ownerRef on a resource you can't delete: ${because(decision)}`));
        }
      }
      const registry = deps.registry();
      for (const ref of newBlockingReferences(a.object, a.oldObject)) {
        const apiVersion = stringOf(ref['apiVersion']);
        const slash = apiVersion.lastIndexOf('/');
        const group = slash < 0 ? '' : apiVersion.slice(0, slash);
        const version = apiVersion.slice(slash + 1);
        const kind = stringOf(ref['kind']);
        const mappings = registry.all().filter((d) => d.group === group && d.version === version && d.kind === kind);
        if (mappings.length === 0) {
          return refused(admissionForbidden(a,
            `cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion ${apiVersion} Kind ${kind}: no matches for kind "${kind}" in version "${apiVersion}"`));
        }
        for (const def of mappings) {
          const decision = await ask(a, resourceRequest('update', def.group, def.version, def.resource, 'finalizers', a.namespace, stringOf(ref['name'])));
          if (decision?.decision !== 'allow') {
            return refused(admissionForbidden(a,
              `cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: ${because(decision)}`));
          }
        }
      }
      return admitted;
    },
  };
}
