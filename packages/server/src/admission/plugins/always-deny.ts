/**
 * AlwaysDeny (plugin/pkg/admission/deny): refuses every request it is asked about, in both phases, with 403
 * "admission control is denying all modifications". Deprecated in kube-apiserver, which warns when it is enabled.
 */
import type { Names } from '@svc-apiserver/api';
import { refused, type AdmissionPlugin } from '../plugin.js';
import { admissionForbidden } from './admission-forbidden.js';

/** The plugin's name. */
export const alwaysDenyPluginName = 'AlwaysDeny';

/** Creates the plugin. */
export function alwaysDenyPlugin(_names: Names): AdmissionPlugin {
  const deny = (a: Parameters<typeof admissionForbidden>[0]) => refused(admissionForbidden(a, 'admission control is denying all modifications'));
  return {
    name: alwaysDenyPluginName,
    enabledByDefault: false,
    deprecationWarning: `${alwaysDenyPluginName} admission controller is deprecated. Please remove this controller from your configuration files and scripts.`,
    handles: () => true,
    admit: deny,
    validate: deny,
  };
}
