/**
 * Every admission plugin this server knows. The order here does not matter: the chain runs enabled plugins in
 * kube-apiserver's fixed order (plugin-order.ts).
 */
import type { PluginFactory } from '../plugin.js';
import { certificateApprovalPlugin } from './certificate-approval.js';
import { certificateSigningPlugin } from './certificate-signing.js';
import { certificateSubjectRestrictionPlugin } from './certificate-subject-restriction.js';
import { namespaceLifecyclePlugin } from './namespace-lifecycle.js';
import { serviceAccountPlugin } from './service-account.js';

/** Plugin factories. */
export const pluginFactories: readonly PluginFactory[] = [
  namespaceLifecyclePlugin,
  (names) => serviceAccountPlugin(names),
  certificateApprovalPlugin,
  certificateSigningPlugin,
  certificateSubjectRestrictionPlugin,
];
