/**
 * kubectl's describeContainers: for each container its ID, image, ports, command and args, state (when a Pod's
 * status has one), resources, probes, environment and mounts. Values a container takes from ConfigMaps and
 * Secrets are named, never read: `<set to the key 'k' in secret 's'>`, as kubectl prints them.
 */
import type { KubeObject } from '@svc-apiserver/api';
import type { Any } from './describe-context.js';
import type { DescribeWriter } from './describe-writer.js';
import { goSlice, printBool, rfc1123z } from './go-format.js';
import { canonicalQuantity, parseQuantity, quantityMilliValue, quantityOf, quantityValue, unitQuantity } from './quantity.js';

/** kubectl's DescribeProbe: the action, then `delay=.. timeout=.. period=.. #success=.. #failure=..`. */
export function describeProbe(probe: Any): string {
  const attrs = `delay=${probe.initialDelaySeconds ?? 0}s timeout=${probe.timeoutSeconds ?? 0}s period=${probe.periodSeconds ?? 0}s #success=${probe.successThreshold ?? 0} #failure=${probe.failureThreshold ?? 0}`;
  if (probe.exec) return `exec ${goSlice(probe.exec.command)} ${attrs}`;
  if (probe.httpGet) {
    const get: Any = probe.httpGet;
    const host = String(get.host ?? '');
    // net.JoinHostPort brackets IPv6 hosts; url.URL.String() puts `//` before a host and `/` before a relative path
    const hostPort = `${host.includes(':') ? `[${host}]` : host}:${String(get.port ?? 0)}`;
    const path = String(get.path ?? '');
    const scheme = String(get.scheme ?? '').toLowerCase();
    return `http-get ${scheme === '' ? '' : `${scheme}:`}//${hostPort}${path !== '' && !path.startsWith('/') ? '/' : ''}${path} ${attrs}`;
  }
  if (probe.tcpSocket) return `tcp-socket ${probe.tcpSocket.host ?? ''}:${String(probe.tcpSocket.port ?? 0)} ${attrs}`;
  if (probe.grpc) return `grpc <pod>:${probe.grpc.port ?? 0} ${probe.grpc.service ?? ''} ${attrs}`;
  return `unknown ${attrs}`;
}

/** kubectl's describeStatus: a container state's lines. */
function writeState(w: DescribeWriter, title: string, state: Any | undefined): void {
  if (state?.running) {
    w.write(2, `${title}:\tRunning\n`);
    w.write(3, `Started:\t${rfc1123z(state.running.startedAt)}\n`);
  } else if (state?.terminated) {
    const t: Any = state.terminated;
    w.write(2, `${title}:\tTerminated\n`);
    if (t.reason) w.write(3, `Reason:\t${t.reason}\n`);
    if (t.message) w.write(3, `Message:\t${t.message}\n`);
    w.write(3, `Exit Code:\t${t.exitCode ?? 0}\n`);
    if ((t.signal ?? 0) > 0) w.write(3, `Signal:\t${t.signal}\n`);
    w.write(3, `Started:\t${rfc1123z(t.startedAt)}\n`);
    w.write(3, `Finished:\t${rfc1123z(t.finishedAt)}\n`);
  } else {
    w.write(2, `${title}:\tWaiting\n`);
    if (state?.waiting?.reason) w.write(3, `Reason:\t${state.waiting.reason}\n`);
  }
}

/**
 * kubectl's EnvValueRetriever: the value of a `fieldRef` in the Pod. kubectl converts the field path with its
 * client scheme, which knows only `metadata.name` and `metadata.namespace` for Pods; every other path reads empty.
 */
function fieldRefValue(pod: KubeObject | undefined, fieldPath: string): string {
  if (pod === undefined) return '';
  if (fieldPath === 'metadata.name') return pod.metadata?.name ?? '';
  if (fieldPath === 'metadata.namespace') return pod.metadata?.namespace ?? '';
  return '';
}

/** kubectl's ExtractContainerResourceValue: a resource of the container over the divisor, rounded up. */
function resourceFieldValue(container: Any, ref: Any): string {
  const m = /^(limits|requests)\.(.+)$/.exec(String(ref.resource ?? ''));
  const [, kind = '', name = ''] = m ?? [];
  if (!['cpu', 'memory', 'ephemeral-storage'].includes(name) && !name.startsWith('hugepages-')) return '';
  const divisor = parseQuantity(ref.divisor);
  const by = divisor === undefined || divisor.nano === 0n ? unitQuantity(1n, 'DecimalSI') : divisor;
  const q = quantityOf(container.resources?.[kind], name);
  const ratio = name === 'cpu' ? Number(quantityMilliValue(q)) / Number(quantityMilliValue(by)) : Number(quantityValue(q)) / Number(quantityValue(by));
  return String(Math.ceil(ratio));
}

function writeEnv(w: DescribeWriter, container: Any, pod: KubeObject | undefined): void {
  const env: Any[] = container.env ?? [];
  w.write(2, `Environment:${env.length === 0 ? '\t<none>' : ''}\n`);
  for (const e of env) {
    const from: Any | undefined = e.valueFrom;
    if (!from) {
      String(e.value ?? '').split('\n').forEach((line, i) => w.write(3, i === 0 ? `${e.name}:\t${line}\n` : `\t${line}\n`));
    } else if (from.fieldRef) {
      w.write(3, `${e.name}:\t${fieldRefValue(pod, from.fieldRef.fieldPath)} (${from.fieldRef.apiVersion ?? ''}:${from.fieldRef.fieldPath ?? ''})\n`);
    } else if (from.resourceFieldRef) {
      const resource = String(from.resourceFieldRef.resource ?? '');
      let value = resourceFieldValue(container, from.resourceFieldRef);
      if (value === '0' && (resource === 'limits.cpu' || resource === 'limits.memory')) value = 'node allocatable';
      w.write(3, `${e.name}:\t${value} (${resource})\n`);
    } else if (from.secretKeyRef) {
      w.write(3, `${e.name}:\t<set to the key '${from.secretKeyRef.key ?? ''}' in secret '${from.secretKeyRef.name ?? ''}'>\tOptional: ${from.secretKeyRef.optional === true}\n`);
    } else if (from.configMapKeyRef) {
      w.write(3, `${e.name}:\t<set to the key '${from.configMapKeyRef.key ?? ''}' of config map '${from.configMapKeyRef.name ?? ''}'>\tOptional: ${from.configMapKeyRef.optional === true}\n`);
    }
  }
}

function writeEnvFrom(w: DescribeWriter, container: Any): void {
  w.write(2, 'Environment Variables from:\n');
  for (const e of container.envFrom as Any[]) {
    const [from, ref]: [string, Any | undefined] = e.configMapRef ? ['ConfigMap', e.configMapRef] : e.secretRef ? ['Secret', e.secretRef] : ['', undefined];
    const what = e.prefix ? `${from} with prefix '${e.prefix}'` : from;
    w.write(3, `${ref?.name ?? ''}\t${what}\tOptional: ${ref?.optional === true}\n`);
  }
}

function writeMounts(w: DescribeWriter, container: Any): void {
  const mounts: Any[] = [...(container.volumeMounts ?? [])].sort((a, b) => (a.mountPath < b.mountPath ? -1 : a.mountPath > b.mountPath ? 1 : 0));
  const none = mounts.length === 0 ? '\t<none>' : '';
  w.write(2, `Mounts:${none}\n`);
  for (const m of mounts) {
    const flags = [m.readOnly === true ? 'ro' : 'rw', ...(m.subPath ? [`path=${JSON.stringify(m.subPath)}`] : [])];
    w.write(3, `${m.mountPath} from ${m.name} (${flags.join(',')})\n`);
  }
  const devices: Any[] = [...(container.volumeDevices ?? [])].sort((a, b) => (a.devicePath < b.devicePath ? -1 : a.devicePath > b.devicePath ? 1 : 0));
  if (devices.length > 0) {
    w.write(2, `Devices:${none}\n`);
    for (const d of devices) w.write(3, `${d.devicePath} from ${d.name}\n`);
  }
}

function writeResources(w: DescribeWriter, title: string, list: Any | undefined): void {
  const names = Object.keys(list ?? {}).sort();
  if (names.length > 0) w.write(2, `${title}:\n`);
  for (const name of names) w.write(3, `${name}:\t${canonicalQuantity(list?.[name])}\n`);
}

/**
 * `Containers:` (or `Init Containers:`, ...) and each container's lines. `statuses` are the Pod's container
 * statuses (none for a template); `pod` resolves `fieldRef` values (none for a template); `space` indents a
 * template's section.
 */
export function writeContainers(w: DescribeWriter, label: string, containers: readonly Any[] | undefined, statuses: readonly Any[] | undefined, pod: KubeObject | undefined, space: string): void {
  const list = containers ?? [];
  w.write(0, `${space}${label}:${list.length === 0 ? ' <none>' : ''}\n`);
  const byName = new Map<string, Any>((statuses ?? []).map((st) => [String(st.name), st]));
  for (const c of list) {
    const status = byName.get(String(c.name));
    w.write(1, `${space === '' ? '' : ' '}${c.name}:\n`);
    if (status) w.write(2, `Container ID:\t${status.containerID ?? ''}\n`);
    w.write(2, `Image:\t${c.image ?? ''}\n`);
    if (status) w.write(2, `Image ID:\t${status.imageID ?? ''}\n`);
    const ports: Any[] = c.ports ?? [];
    const portText = ports.map((p) => `${p.containerPort ?? 0}/${p.protocol ?? ''}`).join(', ');
    const hostPortText = ports.map((p) => `${p.hostPort ?? 0}/${p.protocol ?? ''}`).join(', ');
    w.write(2, portText.includes(',') ? `Ports:\t${portText}\n` : `Port:\t${portText || '<none>'}\n`);
    w.write(2, hostPortText.includes(',') ? `Host Ports:\t${hostPortText}\n` : `Host Port:\t${hostPortText || '<none>'}\n`);
    const seccomp: Any | undefined = c.securityContext?.seccompProfile;
    if (seccomp) {
      w.write(2, `SeccompProfile:\t${seccomp.type ?? ''}\n`);
      if (seccomp.type === 'Localhost') w.write(3, `LocalhostProfile:\t${seccomp.localhostProfile ?? ''}\n`);
    }
    for (const [title, items] of [['Command', c.command], ['Args', c.args]] as const) {
      if (!Array.isArray(items) || items.length === 0) continue;
      w.write(2, `${title}:\n`);
      for (const item of items) for (const line of String(item).split('\n')) w.write(3, `${line}\n`);
    }
    if (status) {
      writeState(w, 'State', status.state);
      if (status.lastState?.terminated) writeState(w, 'Last State', status.lastState);
      w.write(2, `Ready:\t${printBool(status.ready)}\n`);
      w.write(2, `Restart Count:\t${status.restartCount ?? 0}\n`);
    }
    writeResources(w, 'Limits', c.resources?.limits);
    writeResources(w, 'Requests', c.resources?.requests);
    for (const [title, probe] of [['Liveness', c.livenessProbe], ['Readiness', c.readinessProbe], ['Startup', c.startupProbe]] as const) {
      if (probe) w.write(2, `${title}:\t${describeProbe(probe as Any)}\n`);
    }
    if ((c.envFrom ?? []).length > 0) writeEnvFrom(w, c);
    writeEnv(w, c, pod);
    writeMounts(w, c);
  }
}
