/**
 * AlwaysAdmit (plugin/pkg/admission/admit): admits every request in both phases. Deprecated in kube-apiserver,
 * which warns when it is enabled; kept so that configurations naming it start here as there.
 */
import type { Names } from '@svc-apiserver/api';
import { admitted, type AdmissionPlugin } from '../plugin.js';

/** The plugin's name. */
export const alwaysAdmitPluginName = 'AlwaysAdmit';

/** Creates the plugin. */
export function alwaysAdmitPlugin(_names: Names): AdmissionPlugin {
  return {
    name: alwaysAdmitPluginName,
    enabledByDefault: false,
    deprecationWarning: `${alwaysAdmitPluginName} admission controller is deprecated. Please remove this controller from your configuration files and scripts.`,
    handles: () => true,
    admit: () => admitted,
    validate: () => admitted,
  };
}
