/**
 * SecurityContextDeny (plugin/pkg/admission/securitycontext/scdeny): pods may not set the security context fields
 * that choose identities or labels: `supplementalGroups`, `seLinuxOptions`, `runAsUser` and `fsGroup` of the pod,
 * `seLinuxOptions` and `runAsUser` of any container. For clusters that let nothing but the runtime decide them.
 */
import { forbidden, type Names } from '@svc-apiserver/api';
import { asObject, containersOf, specOf } from '../object-access.js';
import { admitted, refused, type AdmissionPlugin } from '../plugin.js';

/** The plugin's name. */
export const securityContextDenyPluginName = 'SecurityContextDeny';

/** Creates the plugin. */
export function securityContextDenyPlugin(_names: Names): AdmissionPlugin {
  return {
    name: securityContextDenyPluginName,
    enabledByDefault: false,
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    validate(a) {
      if (a.group !== '' || a.resource !== 'pods' || a.subresource !== '' || a.object === undefined) return admitted;
      // kube names the pod by its own name here, empty for a generated one.
      const deny = (why: string) => refused(forbidden({ group: '', resource: 'pods' }, a.object?.metadata?.name ?? '', why));
      const spec = specOf(a.object);
      const pod = asObject(spec['securityContext']);
      if (pod !== undefined) {
        for (const [field, label] of [['supplementalGroups', 'SupplementalGroups'], ['seLinuxOptions', 'SELinuxOptions'], ['runAsUser', 'RunAsUser'], ['fsGroup', 'FSGroup']] as const) {
          if (pod[field] !== undefined && pod[field] !== null) return deny(`pod.Spec.SecurityContext.${label} is forbidden`);
        }
      }
      for (const { container } of containersOf(spec)) {
        const sc = asObject(container['securityContext']);
        if (sc === undefined) continue;
        if (sc['seLinuxOptions'] !== undefined && sc['seLinuxOptions'] !== null) return deny('SecurityContext.SELinuxOptions is forbidden');
        if (sc['runAsUser'] !== undefined && sc['runAsUser'] !== null) return deny('SecurityContext.RunAsUser is forbidden');
      }
      return admitted;
    },
  };
}
