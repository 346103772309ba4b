/**
 * Every admission plugin this server knows, in the order they run (kube's RecommendedPluginOrder, of the plugins
 * built so far).
 */
import type { Names } from '@svc-apiserver/api';
import type { AdmissionPlugin } from '../plugin.js';
import { certificateApprovalPlugin } from './certificate-approval.js';
import { certificateSigningPlugin } from './certificate-signing.js';
import { certificateSubjectRestrictionPlugin } from './certificate-subject-restriction.js';
import { namespaceLifecyclePlugin } from './namespace-lifecycle.js';
import { serviceAccountPlugin } from './service-account.js';

/** Plugin factories in run order. */
export const pluginFactories: readonly ((names: Names) => AdmissionPlugin)[] = [
  namespaceLifecyclePlugin,
  (names) => serviceAccountPlugin(names),
  certificateApprovalPlugin,
  certificateSigningPlugin,
  certificateSubjectRestrictionPlugin,
];
