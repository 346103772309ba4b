/**
 * NodeRestriction (plugin/pkg/admission/noderestriction): a node agent (user `system:node:<name>` in group
 * `system:nodes`) may only touch what is its own: its Node object (never another node's; not its taints, not its
 * config source, not labels outside the node agent's set, and not deleting it), mirror pods bound to itself (create,
 * delete, status), evictions of its pods, the status of claims (capacity and conditions only), tokens bound to its
 * pods, its Lease in the node lease namespace and its CSINode. Other users pass untouched.
 */
import { notFound, type KubeObject, type Names } from '@svc-apiserver/api';
import { admissionForbidden } from '../admission-errors.js';
import { annotationsOf, asObject, jsonEqual, labelsOf, objectsOf, specOf, stringOf } from '../object-access.js';
import { dependencyHolder } from '../plugin-dependencies.js';
import { admitted, refused, type AdmissionAttributes, type AdmissionResult, type InitializablePlugin } from '../plugin.js';

/** The plugin's name. */
export const nodeRestrictionPluginName = 'NodeRestriction';

const nodeUserPrefix = 'system:node:';
const nodesGroup = 'system:nodes';

/** The node a user is (nodeidentifier.NodeIdentity): undefined for users that are not nodes, '' for a node without a name. */
export function nodeIdentity(user: AdmissionAttributes['user']): string | undefined {
  if (!user.username.startsWith(nodeUserPrefix) || !user.groups.includes(nodesGroup)) return undefined;
  return user.username.slice(nodeUserPrefix.length);
}

/** The label's prefix before `/` (its namespace), or ''. */
const labelDomain = (key: string): string => (key.includes('/') ? key.slice(0, key.indexOf('/')) : '');
const inDomain = (domain: string, base: string): boolean => domain === base || domain.endsWith(`.${base}`);

/** Keys added, removed or changed between two label maps. */
function modifiedLabels(now: Record<string, string>, before: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(now), ...Object.keys(before)]);
  return [...keys].filter((k) => now[k] !== before[k]).sort();
}

/** Creates the plugin. */
export function nodeRestrictionPlugin(names: Names): InitializablePlugin {
  const deps = dependencyHolder(nodeRestrictionPluginName);
  const domain = names.domain('').slice(0, -1);
  const coordination = names.group('coordination');
  const storageGroup = names.group('storage');
  const nodeLeaseNamespace = names.name('nodeLeaseNamespace');
  const mirrorPodAnnotation = names.domain('config.mirror');
  const restrictionDomain = `node-restriction.${domain}`;
  /** The labels a node agent may set on its Node (kubeletapis.IsKubeletLabel). */
  const agentLabels = new Set([
    names.domain('hostname'), names.domain('zone', 'topology'), names.domain('region', 'topology'),
    names.domain('zone', 'failure-domain.beta'), names.domain('region', 'failure-domain.beta'),
    names.domain('instance-type', 'beta'), names.domain('instance-type', 'node'),
    names.domain('os'), names.domain('arch'), names.domain('os', 'beta'), names.domain('arch', 'beta'),
  ]);
  const agentLabelDomains = [`kubelet.${domain}`, `node.${domain}`];
  const forbiddenLabels = (keys: readonly string[]): string[] => keys.filter((key) => {
    const d = labelDomain(key);
    if (inDomain(d, restrictionDomain)) return true;
    const builtIn = inDomain(d, domain) || inDomain(d, 'k8s.io');
    return builtIn && !agentLabels.has(key) && !agentLabelDomains.some((allowed) => inDomain(d, allowed));
  });

  const pod = async (namespace: string, name: string): Promise<KubeObject | undefined> =>
    (await deps.informer('', 'pods'))?.get(namespace, name);

  const admitPod = async (node: string, a: AdmissionAttributes): Promise<AdmissionResult> => {
    switch (a.subresource) {
      case '':
        if (a.operation === 'CREATE') return admitMirrorPod(node, a);
        if (a.operation === 'DELETE') {
          const existing = await pod(a.namespace, a.name);
          if (existing === undefined) return refused(notFound({ group: '', resource: 'pods' }, a.name));
          if (stringOf(specOf(existing)['nodeName']) !== node) {
            return refused(admissionForbidden(a, `node "${node}" can only delete pods with spec.nodeName set to itself`));
          }
          return admitted;
        }
        return refused(admissionForbidden(a, `unexpected operation "${a.operation}", node "${node}" can only create and delete mirror pods`));
      case 'status': {
        if (a.operation !== 'UPDATE') return refused(admissionForbidden(a, `unexpected operation "${a.operation}"`));
        if (stringOf(specOf(a.oldObject)['nodeName']) !== node) {
          return refused(admissionForbidden(a, `node "${node}" can only update pod status for pods with spec.nodeName set to itself`));
        }
        if (!jsonEqual(labelsOf(a.object), labelsOf(a.oldObject))) {
          return refused(admissionForbidden(a, `node "${node}" cannot update labels through pod status`));
        }
        return admitted;
      }
      case 'eviction': {
        if (a.operation !== 'CREATE') return refused(admissionForbidden(a, `unexpected operation ${a.operation}`));
        const podName = a.name || (a.object?.metadata?.name ?? '');
        if (podName === '') return refused(admissionForbidden(a, 'could not determine pod from request data'));
        const existing = await pod(a.namespace, podName);
        if (existing === undefined) return refused(notFound({ group: '', resource: 'pods' }, podName));
        if (stringOf(specOf(existing)['nodeName']) !== node) {
          return refused(admissionForbidden(a, `node ${node} can only evict pods with spec.nodeName set to itself`));
        }
        return admitted;
      }
      default:
        return refused(admissionForbidden(a, `unexpected subresource "${a.subresource}", only 'status' and 'eviction' are allowed`));
    }
  };

  const admitMirrorPod = async (node: string, a: AdmissionAttributes): Promise<AdmissionResult> => {
    const object = a.object;
    const deny = (why: string) => refused(admissionForbidden(a, why));
    if (!(mirrorPodAnnotation in annotationsOf(object))) {
      return deny(`pod does not have "${mirrorPodAnnotation}" annotation, node "${node}" can only create mirror pods`);
    }
    const spec = specOf(object);
    if (stringOf(spec['nodeName']) !== node) return deny(`node "${node}" can only create pods with spec.nodeName set to itself`);
    const owners = objectsOf(object?.metadata?.ownerReferences);
    if (owners.length > 1) return deny(`node "${node}" can only create pods with a single owner reference set to itself`);
    const owner = owners[0];
    if (owner === undefined || owner['apiVersion'] !== 'v1' || owner['kind'] !== 'Node' || owner['name'] !== node) {
      return deny(`node "${node}" can only create pods with an owner reference set to itself`);
    }
    if (owner['controller'] !== true) return deny(`node "${node}" can only create pods with a controller owner reference set to itself`);
    if (owner['blockOwnerDeletion'] === true) return deny(`node "${node}" must not set blockOwnerDeletion on an owner reference`);
    const nodeObject = (await deps.informer('', 'nodes'))?.get('', node);
    if (nodeObject === undefined) return refused(notFound({ group: '', resource: 'nodes' }, node));
    if (owner['uid'] !== nodeObject.metadata?.uid) {
      return deny(`node ${node} UID mismatch: expected ${String(owner['uid'] ?? '')} got ${nodeObject.metadata?.uid ?? ''}`);
    }
    if (stringOf(spec['serviceAccountName']) !== '') return deny(`node "${node}" can not create pods that reference a service account`);
    const volumes = objectsOf(spec['volumes']);
    const containers = ['initContainers', 'containers', 'ephemeralContainers'].flatMap((k) => objectsOf(spec[k]));
    const envFrom = containers.flatMap((c) => objectsOf(c['envFrom']));
    const envRefs = containers.flatMap((c) => objectsOf(c['env'])).map((e) => asObject(e['valueFrom']) ?? {});
    const projected = volumes.flatMap((v) => objectsOf(asObject(v['projected'])?.['sources']));
    const usesSecrets = objectsOf(spec['imagePullSecrets']).length > 0 || volumes.some((v) => v['secret'] !== undefined) ||
      projected.some((s) => s['secret'] !== undefined) || envFrom.some((e) => e['secretRef'] !== undefined) ||
      envRefs.some((r) => r['secretKeyRef'] !== undefined);
    if (usesSecrets) return deny(`node "${node}" can not create pods that reference secrets`);
    const usesConfigMaps = volumes.some((v) => v['configMap'] !== undefined) || projected.some((s) => s['configMap'] !== undefined) ||
      envFrom.some((e) => e['configMapRef'] !== undefined) || envRefs.some((r) => r['configMapKeyRef'] !== undefined);
    if (usesConfigMaps) return deny(`node "${node}" can not create pods that reference configmaps`);
    if (volumes.some((v) => v['persistentVolumeClaim'] !== undefined)) {
      return deny(`node "${node}" can not create pods that reference persistentvolumeclaims`);
    }
    return admitted;
  };

  const admitNode = (node: string, a: AdmissionAttributes): AdmissionResult => {
    const requested = a.name || (a.object?.metadata?.name ?? '');
    if (requested !== node) return refused(admissionForbidden(a, `node "${node}" is not allowed to modify node "${requested}"`));
    if (a.operation === 'DELETE') return refused(admissionForbidden(a, `node "${node}" is not allowed to delete its Node object`));
    if (a.subresource !== '' && a.subresource !== 'status') return admitted;
    const spec = specOf(a.object);
    if (a.operation === 'CREATE') {
      if (spec['configSource'] !== undefined && spec['configSource'] !== null) {
        return refused(admissionForbidden(a, `node "${node}" is not allowed to create pods with a non-nil configSource`));
      }
      const bad = forbiddenLabels(modifiedLabels(labelsOf(a.object), {}));
      if (bad.length > 0) return refused(admissionForbidden(a, `node "${node}" is not allowed to set the following labels: ${bad.join(', ')}`));
      return admitted;
    }
    if (a.operation === 'UPDATE') {
      const oldSpec = specOf(a.oldObject);
      if (spec['configSource'] !== undefined && spec['configSource'] !== null && !jsonEqual(spec['configSource'], oldSpec['configSource'])) {
        return refused(admissionForbidden(a, `node "${node}" is not allowed to update configSource to a new non-nil configSource`));
      }
      if (!jsonEqual(spec['taints'] ?? [], oldSpec['taints'] ?? [])) return refused(admissionForbidden(a, `node "${node}" is not allowed to modify taints`));
      const bad = forbiddenLabels(modifiedLabels(labelsOf(a.object), labelsOf(a.oldObject)));
      if (bad.length > 0) return refused(admissionForbidden(a, `is not allowed to modify labels: ${bad.join(', ')}`));
    }
    return admitted;
  };

  const admitClaimStatus = (node: string, a: AdmissionAttributes): AdmissionResult => {
    if (a.subresource !== 'status') return refused(admissionForbidden(a, 'may only update PVC status'));
    if (a.operation !== 'UPDATE') return refused(admissionForbidden(a, `unexpected operation "${a.operation}"`));
    const strip = (o: KubeObject | undefined): unknown => {
      const copy = structuredClone(o ?? {});
      if (copy.metadata !== undefined) delete copy.metadata.resourceVersion;
      const status = asObject(copy['status']);
      if (status !== undefined) {
        delete status['capacity'];
        delete status['conditions'];
      }
      return copy;
    };
    if (!jsonEqual(strip(a.object), strip(a.oldObject))) {
      return refused(admissionForbidden(a, `node "${node}" is not allowed to update fields other than status.capacity and status.conditions`));
    }
    return admitted;
  };

  const admitTokenRequest = async (node: string, a: AdmissionAttributes): Promise<AdmissionResult> => {
    if (a.operation !== 'CREATE' || a.subresource !== 'token') return admitted;
    const ref = asObject(specOf(a.object)['boundObjectRef']);
    if (ref === undefined || ref['apiVersion'] !== 'v1' || ref['kind'] !== 'Pod' || stringOf(ref['name']) === '') {
      return refused(admissionForbidden(a, 'node requested token not bound to a pod'));
    }
    const uid = stringOf(ref['uid']);
    if (uid === '') return refused(admissionForbidden(a, 'node requested token with a pod binding without a uid'));
    const bound = await pod(a.namespace, stringOf(ref['name']));
    if (bound === undefined) return refused(notFound({ group: '', resource: 'pods' }, stringOf(ref['name'])));
    if (uid !== bound.metadata?.uid) {
      return refused(admissionForbidden(a,
        `the UID in the bound object reference (${uid}) does not match the UID in record. The object might have been deleted and then recreated`));
    }
    if (stringOf(specOf(bound)['nodeName']) !== node) return refused(admissionForbidden(a, 'node requested token bound to a pod scheduled on a different node'));
    return admitted;
  };

  /** A request on an object that must bear the node's name (Leases, CSINodes). */
  const ownName = (node: string, a: AdmissionAttributes, what: string): AdmissionResult => {
    const name = a.operation === 'CREATE' ? (a.object?.metadata?.name ?? '') : a.name;
    return name === node ? admitted : refused(admissionForbidden(a, `can only access ${what} with the same name as the requesting node`));
  };

  return {
    name: nodeRestrictionPluginName,
    enabledByDefault: false,
    initialize: (d) => deps.set(d),
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE' || operation === 'DELETE',
    async admit(a) {
      const node = nodeIdentity(a.user);
      if (node === undefined) return admitted;
      if (node === '') return refused(admissionForbidden(a, `could not determine node from user "${a.user.username}"`));
      if (a.group === '') {
        switch (a.resource) {
          case 'pods': return admitPod(node, a);
          case 'nodes': return admitNode(node, a);
          case 'persistentvolumeclaims': return admitClaimStatus(node, a);
          case 'serviceaccounts': return admitTokenRequest(node, a);
          default: return admitted;
        }
      }
      if (a.group === coordination && a.resource === 'leases') {
        if (a.namespace !== nodeLeaseNamespace) return refused(admissionForbidden(a, `can only access leases in the "${nodeLeaseNamespace}" system namespace`));
        return ownName(node, a, 'node lease');
      }
      if (a.group === storageGroup && a.resource === 'csinodes') return ownName(node, a, 'CSINode');
      return admitted;
    },
  };
}
