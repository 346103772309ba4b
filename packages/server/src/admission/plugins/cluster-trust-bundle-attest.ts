/**
 * ClusterTrustBundleAttest (plugin/pkg/admission/certificates/ctbattest): creating or updating a ClusterTrustBundle
 * that names a signer needs `attest` on `signers` for that signer (or its `<domain>/*`); otherwise 403 "user not
 * permitted to attest for signerName ...". Bundles without a signer, and updates that change only what garbage
 * collection writes (storage migration, owner references), are not checked. As in kube, the plugin is on by
 * default but acts only while the ClusterTrustBundle feature gate is on.
 */
import type { KubeObject, Names } from '@svc-apiserver/api';
import type { Authorizer } from '../../request/authorizer.js';
import { onlyGcFieldsChanged } from '../../registry/gc-fields.js';
import { admitted, refused, type PluginInit } from '../plugin.js';
import { admissionForbidden } from './admission-forbidden.js';
import type { WantsAuthorizer } from './plugin-initializers.js';
import { isAuthorizedForSignerName } from './signer-authorization.js';

/** The plugin's name. */
export const clusterTrustBundleAttestPluginName = 'ClusterTrustBundleAttest';

/** The bundle's `spec.signerName`, '' when unset or not a string. */
function signerNameOf(bundle: KubeObject | undefined): string {
  const spec = bundle?.['spec'];
  const name = typeof spec === 'object' && spec !== null ? (spec as Record<string, unknown>)['signerName'] : undefined;
  return typeof name === 'string' ? name : '';
}

/** Creates the plugin. */
export function clusterTrustBundleAttestPlugin(names: Names, init: PluginInit): WantsAuthorizer {
  const group = names.group('certificates');
  const enabled = init.featureGates?.ClusterTrustBundle === true;
  let authorizer: Authorizer | undefined;
  return {
    name: clusterTrustBundleAttestPluginName,
    enabledByDefault: true,
    setAuthorizer(a) {
      authorizer = a;
    },
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    actsOn: (g, resource) => enabled && g === group && resource === 'clustertrustbundles',
    async validate(a) {
      if (!enabled || a.group !== group || a.resource !== 'clustertrustbundles') return admitted;
      // The new object is what is checked: validation refuses a change of the signer name on update.
      const signerName = signerNameOf(a.object);
      if (signerName === '') return admitted;
      if (a.operation === 'UPDATE' && a.object !== undefined && a.oldObject !== undefined && onlyGcFieldsChanged(a.object, a.oldObject)) return admitted;
      if (authorizer === undefined) throw new Error(`${clusterTrustBundleAttestPluginName} used before it was given an authorizer`);
      if (await isAuthorizedForSignerName(authorizer, a.user, 'attest', signerName, group)) return admitted;
      return refused(admissionForbidden(a, `user not permitted to attest for signerName ${JSON.stringify(signerName)}`));
    },
  };
}
