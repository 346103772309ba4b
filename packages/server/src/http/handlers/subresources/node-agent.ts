/**
 * What the node-agent routes (pods' log, exec, attach, portforward and proxy; services/proxy; nodes/proxy) answer.
 * kube-apiserver forwards these to the kubelet; this server runs no node agent, so each answers the Status kube
 * answers when it cannot reach one: the object must exist (404), an unscheduled pod has no host (400 `pod x does
 * not have a host assigned`), and otherwise the agent is unreachable (503 ServiceUnavailable).
 */
import { badRequest, serviceUnavailable, type KubeObject, type Result, type Status } from '@svc-apiserver/api';
import type { RequestContext } from '../../context.js';
import type { Registry } from '../../../registry/registry.js';
import type { ResourceDef } from '../../../registry/resource-def.js';
import { record } from '../../../registry/conversion/resource-conversion.js';
import { requestNamespace } from '../request-options.js';

/** The object (pod, service, node) a node-agent route names, or the Status answered when it cannot be read. */
export function readTarget(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<Result<KubeObject>> {
  return registry.store.get(def, requestNamespace(ctx, def), ctx.info.name);
}

/** The names of a pod's containers (regular, init and ephemeral). */
function containerNames(pod: KubeObject): { regular: string[]; all: string[] } {
  const spec = record(pod['spec']) ?? {};
  const names = (key: string): string[] => (Array.isArray(spec[key]) ? spec[key] : []).map((c) => String(record(c)?.['name'] ?? ''));
  const regular = names('containers');
  return { regular, all: [...regular, ...names('initContainers'), ...names('ephemeralContainers')] };
}

/**
 * The container check kube makes before reaching the kubelet: with several containers one must be named
 * (`a container name must be specified for pod x, choose one of: [a b]`), and a named one must exist.
 */
export function checkContainer(pod: KubeObject, requested: string | null): Status | undefined {
  const name = pod.metadata?.name ?? '';
  const { regular, all } = containerNames(pod);
  if (requested === null || requested === '') {
    if (regular.length === 1) return undefined;
    return badRequest(`a container name must be specified for pod ${name}, choose one of: [${all.join(' ')}]`);
  }
  if (!all.includes(requested)) return badRequest(`container ${requested} is not valid for pod ${name}`);
  return undefined;
}

/** The answer for a pod that exists: 400 when it has no host, else 503 (no node agent to reach). */
export function podAgentUnavailable(pod: KubeObject, what: string): Status {
  const name = pod.metadata?.name ?? '';
  const node = String(record(pod['spec'])?.['nodeName'] ?? '');
  if (node === '') return badRequest(`pod ${name} does not have a host assigned`);
  return nodeAgentUnavailable(node, what);
}

/** 503: the node agent of `node` cannot be reached for `what`. */
export function nodeAgentUnavailable(node: string, what: string): Status {
  return serviceUnavailable(`unable to reach the node agent on node "${node}" for ${what}: this server runs no node agent`);
}
