/**
 * DenyServiceExternalIPs (plugin/pkg/admission/network/denyserviceexternalips): no new `spec.externalIPs` on
 * Services; a Service keeps the external IPs it already has and may drop them.
 */
import type { Names } from '@svc-apiserver/api';
import { admissionForbidden } from '../admission-errors.js';
import { specOf } from '../object-access.js';
import { admitted, refused, type AdmissionPlugin } from '../plugin.js';

/** The plugin's name. */
export const denyServiceExternalIpsPluginName = 'DenyServiceExternalIPs';

const externalIps = (spec: Record<string, unknown>): unknown[] => (Array.isArray(spec['externalIPs']) ? spec['externalIPs'] : []);

/** Creates the plugin. */
export function denyServiceExternalIpsPlugin(_names: Names): AdmissionPlugin {
  return {
    name: denyServiceExternalIpsPluginName,
    enabledByDefault: false,
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    validate(a) {
      if (a.group !== '' || a.resource !== 'services' || a.subresource !== '' || a.object === undefined) return admitted;
      const wanted = externalIps(specOf(a.object));
      if (wanted.length === 0) return admitted;
      if (a.operation === 'UPDATE') {
        const before = new Set(externalIps(specOf(a.oldObject)));
        if (wanted.every((ip) => before.has(ip))) return admitted;
      }
      return refused(admissionForbidden(a, 'Use of external IPs is denied by admission control'));
    },
  };
}
