/**
 * flowcontrol.apiserver.svc.io/v1beta2 ↔ v1beta3 (the storage version): FlowSchemas are the same in both;
 * PriorityLevelConfigurations name the limited level's share `assuredConcurrencyShares` in v1beta2 and
 * `nominalConcurrencyShares` in v1beta3 (document 1's removal table; kube's v1beta2 manual conversion).
 */
import { apiVersionOf, type KubeObject, type Names } from '@svc-apiserver/api';
import { record, renameFields, reversed, type ResourceConversion } from './resource-conversion.js';

const sharesPairs: readonly (readonly [string, string])[] = [['assuredConcurrencyShares', 'nominalConcurrencyShares']];
const sharesBack = reversed(sharesPairs);

/** The object with `spec.limited` renamed by `pairs`. */
function renameLimited(object: KubeObject, pairs: readonly (readonly [string, string])[]): KubeObject {
  const out = structuredClone(object);
  const spec = record(out['spec']);
  const limited = record(spec?.['limited']);
  if (spec !== undefined && limited !== undefined) spec['limited'] = renameFields(limited, pairs);
  return out;
}

/** The conversion of a v1beta2 flowcontrol resource (`flowschemas` or `prioritylevelconfigurations`). */
export function flowcontrolV1beta2Conversion(names: Names, resource: 'flowschemas' | 'prioritylevelconfigurations'): ResourceConversion {
  const group = names.group('flowcontrol.apiserver');
  const storageApiVersion = apiVersionOf(group, 'v1beta3');
  const servedApiVersion = apiVersionOf(group, 'v1beta2');
  const kind = resource === 'flowschemas' ? 'FlowSchema' : 'PriorityLevelConfiguration';
  const levels = resource === 'prioritylevelconfigurations';
  return {
    storage: { groupKey: 'flowcontrol.apiserver', version: 'v1beta3', resource, kind },
    storageApiVersion,
    toStorage: (object) => ({ ...(levels ? renameLimited(object, sharesPairs) : structuredClone(object)), apiVersion: storageApiVersion, kind }),
    fromStorage: (object) => ({ ...(levels ? renameLimited(object, sharesBack) : structuredClone(object)), apiVersion: servedApiVersion, kind }),
  };
}
