/**
 * Containers as kube-apiserver 1.27 validates them (pkg/apis/core/validation validateContainers,
 * validateInitContainers, validateEphemeralContainers and what they share): name and image, ports, environment
 * (values, downward API, config map and secret references, envFrom), volume mounts and devices, pull and termination
 * message policies, resources, the security context, probes and lifecycle handlers, host port conflicts, and the
 * fields an init or ephemeral container may not set. Paths are kube's, including where they are not indexed (a
 * mount's `subPath`, an `envFrom` without source).
 */
import { fieldError, type FieldError } from '@svc-apiserver/api';
import { isDns1123Subdomain } from '../../meta/name-rules.js';
import { dns1123Label, isSet, list, nonNegative, num, obj, objects, oneOf, portNameMessages, portNumErrors, portNumOrName, protocolErrors, text, type Json } from './field-checks.js';
import { resourceRequirementsErrors } from './resource-names.js';
import { validateDataKey } from './configmaps.js';
import { containerSecurityContextErrors } from './pod-security.js';
import { envFieldPaths, localDescendingPath, objectFieldSelectorErrors, resourceFieldSelectorErrors } from './volume-paths.js';

/** What container checks read from the pod spec and the validation options. */
export interface ContainerContext {
  /** Volume names and whether each is a claim (a PersistentVolumeClaim or an ephemeral volume), for mounts and devices. */
  readonly volumes: ReadonlyMap<string, { claim: boolean }>;
  readonly gracePeriod: unknown;
  readonly hostUsers: boolean;
  readonly allowIndivisibleHugePages: boolean;
}

const envVarName = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

/** validation.IsEnvVarName. */
function envVarNameMessages(name: string): string[] {
  const errs: string[] = [];
  if (!envVarName.test(name)) {
    errs.push("a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')");
  }
  if (name === '.' || name === '..') errs.push(`must not be '${name}'`);
  else if (name.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

/** validateConfigMapKeySelector / validateSecretKeySelector. */
function keySelectorErrors(s: Json, path: string): FieldError[] {
  const errs = isDns1123Subdomain(text(s['name'])).map((msg) => fieldError.invalid(`${path}.name`, text(s['name']), msg));
  const key = text(s['key']);
  if (key === '') errs.push(fieldError.required(`${path}.key`));
  else errs.push(...validateDataKey(`${path}.key`, key));
  return errs;
}

/** ValidateEnv. */
function envErrors(env: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  objects(env).forEach((e, i) => {
    const at = `${path}[${i}]`;
    const name = text(e['name']);
    if (name === '') errs.push(fieldError.required(`${at}.name`));
    else errs.push(...envVarNameMessages(name).map((msg) => fieldError.invalid(`${at}.name`, name, msg)));
    if (!isSet(e['valueFrom'])) return;
    const from = obj(e['valueFrom']);
    const p = `${at}.valueFrom`;
    let count = 0;
    if (isSet(from['fieldRef'])) {
      count++;
      errs.push(...objectFieldSelectorErrors(obj(from['fieldRef']), envFieldPaths, `${p}.fieldRef`));
    }
    if (isSet(from['resourceFieldRef'])) {
      count++;
      errs.push(...resourceFieldSelectorErrors(obj(from['resourceFieldRef']), `${p}.resourceFieldRef`, false));
    }
    if (isSet(from['configMapKeyRef'])) {
      count++;
      errs.push(...keySelectorErrors(obj(from['configMapKeyRef']), `${p}.configMapKeyRef`));
    }
    if (isSet(from['secretKeyRef'])) {
      count++;
      errs.push(...keySelectorErrors(obj(from['secretKeyRef']), `${p}.secretKeyRef`));
    }
    if (count === 0) errs.push(fieldError.invalid(p, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
    else if (text(e['value']) !== '') errs.push(fieldError.invalid(p, '', 'may not be specified when `value` is not empty'));
    else if (count > 1) errs.push(fieldError.invalid(p, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}

/** ValidateEnvFrom; a missing or second source is reported at `envFrom` itself, as kube does. */
function envFromErrors(envFrom: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  objects(envFrom).forEach((e, i) => {
    const at = `${path}[${i}]`;
    const prefix = text(e['prefix']);
    if (prefix !== '') errs.push(...envVarNameMessages(prefix).map((msg) => fieldError.invalid(`${at}.prefix`, prefix, msg)));
    let count = 0;
    for (const kind of ['configMapRef', 'secretRef']) {
      if (!isSet(e[kind])) continue;
      count++;
      const name = text(obj(e[kind])['name']);
      // ValidateConfigMapName / ValidateSecretName with prefix=true: a trailing dash is allowed.
      const masked = name.length > 1 && name.endsWith('-') ? `${name.slice(0, -1)}a` : name;
      if (name === '') errs.push(fieldError.required(`${at}.${kind}.name`));
      else errs.push(...isDns1123Subdomain(masked).map((msg) => fieldError.invalid(`${at}.${kind}.name`, name, msg)));
    }
    if (count === 0) errs.push(fieldError.invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (count > 1) errs.push(fieldError.invalid(path, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}

/** validateContainerPorts. */
function portErrors(ports: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  objects(ports).forEach((p, i) => {
    const at = `${path}[${i}]`;
    const name = text(p['name']);
    if (name !== '') {
      const msgs = portNameMessages(name);
      if (msgs.length > 0) errs.push(...msgs.map((msg) => fieldError.invalid(`${at}.name`, name, msg)));
      else if (names.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
      else names.add(name);
    }
    if (num(p['containerPort']) === 0) errs.push(fieldError.required(`${at}.containerPort`));
    else errs.push(...portNumErrors(p['containerPort'], `${at}.containerPort`));
    if (num(p['hostPort']) !== 0) errs.push(...portNumErrors(p['hostPort'], `${at}.hostPort`));
    errs.push(...protocolErrors(p['protocol'], `${at}.protocol`));
  });
  return errs;
}

/** ValidateVolumeMounts. */
function mountErrors(c: Json, context: ContainerContext, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const mountPaths = new Set<string>();
  const devices = objects(c['volumeDevices']);
  const deviceNames = new Set(devices.map((d) => text(d['name'])));
  const devicePaths = new Set(devices.map((d) => text(d['devicePath'])));
  const privileged = obj(c['securityContext'])['privileged'] === true;
  objects(c['volumeMounts']).forEach((m, i) => {
    const at = `${path}[${i}]`;
    const name = text(m['name']);
    const mountPath = text(m['mountPath']);
    if (name === '') errs.push(fieldError.required(`${at}.name`));
    if (!context.volumes.has(name)) errs.push(fieldError.notFound(`${at}.name`, name));
    if (mountPath === '') errs.push(fieldError.required(`${at}.mountPath`));
    if (mountPaths.has(mountPath)) errs.push(fieldError.invalid(`${at}.mountPath`, mountPath, 'must be unique'));
    mountPaths.add(mountPath);
    if (deviceNames.has(name)) errs.push(fieldError.invalid(`${at}.name`, name, 'must not already exist in volumeDevices'));
    if (devicePaths.has(mountPath)) errs.push(fieldError.invalid(`${at}.mountPath`, mountPath, 'must not already exist as a path in volumeDevices'));
    const subPath = text(m['subPath']);
    if (subPath !== '') errs.push(...localDescendingPath(subPath, `${path}.subPath`));
    const subPathExpr = text(m['subPathExpr']);
    if (subPathExpr !== '') {
      if (subPath !== '') errs.push(fieldError.invalid(`${at}.subPathExpr`, subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      errs.push(...localDescendingPath(subPathExpr, `${path}.subPathExpr`));
    }
    if (isSet(m['mountPropagation'])) {
      const mode = text(m['mountPropagation']);
      const modes = ['Bidirectional', 'HostToContainer', 'None'];
      if (!modes.includes(mode)) errs.push(fieldError.notSupported(`${path}.mountPropagation`, mode, modes));
      if (mode === 'Bidirectional' && !privileged) errs.push(fieldError.forbidden(`${path}.mountPropagation`, 'Bidirectional mount propagation is available only to privileged containers'));
    }
  });
  return errs;
}

/** ValidateVolumeDevices. */
function deviceErrors(c: Json, context: ContainerContext, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const mounts = objects(c['volumeMounts']);
  const mountNames = new Set(mounts.map((m) => text(m['name'])));
  const mountPaths = new Set(mounts.map((m) => text(m['mountPath'])));
  const paths = new Set<string>();
  const names = new Set<string>();
  objects(c['volumeDevices']).forEach((d, i) => {
    const at = `${path}[${i}]`;
    const name = text(d['name']);
    const devicePath = text(d['devicePath']);
    const volume = context.volumes.get(name);
    if (name === '') errs.push(fieldError.required(`${at}.name`));
    if (names.has(name)) errs.push(fieldError.invalid(`${at}.name`, name, 'must be unique'));
    if (volume !== undefined && !volume.claim) errs.push(fieldError.invalid(`${at}.name`, name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'));
    if (volume === undefined) errs.push(fieldError.notFound(`${at}.name`, name));
    if (devicePath === '') errs.push(fieldError.required(`${at}.devicePath`));
    if (paths.has(devicePath)) errs.push(fieldError.invalid(`${at}.devicePath`, devicePath, 'must be unique'));
    if (devicePath !== '' && devicePath.replace(/\\/g, '/').split('/').includes('..')) errs.push(fieldError.invalid(`${at}.devicePath`, devicePath, "can not contain backsteps ('..')"));
    else paths.add(devicePath);
    if (mountNames.has(name)) errs.push(fieldError.invalid(`${at}.name`, name, 'must not already exist in volumeMounts'));
    if (mountPaths.has(devicePath)) errs.push(fieldError.invalid(`${at}.devicePath`, devicePath, 'must not already exist as a path in volumeMounts'));
    if (name !== '') names.add(name);
  });
  return errs;
}

const httpHeaderName = /^[-A-Za-z0-9]+$/;

/** validateHandler over the handler kinds a probe (with grpc) or a lifecycle hook (without) has. */
function handlerErrors(h: Json, path: string, kinds: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const kind of kinds) {
    if (!isSet(h[kind])) continue;
    if (count > 0) {
      errs.push(fieldError.forbidden(`${path}.${kind}`, 'may not specify more than 1 handler type'));
      continue;
    }
    count++;
    const action = obj(h[kind]);
    const at = `${path}.${kind}`;
    if (kind === 'exec' && list(action['command']).length === 0) errs.push(fieldError.required(`${at}.command`));
    if (kind === 'httpGet') {
      if (text(action['path']) === '') errs.push(fieldError.required(`${at}.path`));
      errs.push(...portNumOrName(action['port'], `${at}.port`));
      const scheme = text(action['scheme']);
      if (scheme !== 'HTTP' && scheme !== 'HTTPS') errs.push(fieldError.notSupported(`${at}.scheme`, scheme, ['HTTP', 'HTTPS']));
      for (const header of objects(action['httpHeaders'])) {
        const name = text(header['name']);
        if (!httpHeaderName.test(name)) {
          errs.push(fieldError.invalid(`${at}.httpHeaders`, name, "a valid HTTP header must consist of alphanumerics or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')"));
        }
      }
    }
    if (kind === 'tcpSocket') errs.push(...portNumOrName(action['port'], `${at}.port`));
    if (kind === 'grpc') errs.push(...portNumErrors(action['port'], `${at}.port`));
  }
  if (count === 0) errs.push(fieldError.required(path, 'must specify a handler type'));
  return errs;
}

/** validateProbe with the liveness, readiness and startup rules. */
function probeErrors(probe: unknown, kind: 'livenessProbe' | 'readinessProbe' | 'startupProbe', path: string): FieldError[] {
  if (!isSet(probe)) return [];
  const p = obj(probe);
  const errs = handlerErrors(p, path, ['exec', 'httpGet', 'tcpSocket', 'grpc']);
  for (const field of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    errs.push(...nonNegative(p[field], `${path}.${field}`));
  }
  const grace = p['terminationGracePeriodSeconds'];
  if (isSet(grace) && num(grace) <= 0) errs.push(fieldError.invalid(`${path}.terminationGracePeriodSeconds`, grace, 'must be greater than 0'));
  if (kind !== 'readinessProbe' && num(p['successThreshold']) !== 1) errs.push(fieldError.invalid(`${path}.successThreshold`, num(p['successThreshold']), 'must be 1'));
  if (kind === 'readinessProbe' && isSet(grace)) errs.push(fieldError.invalid(`${path}.terminationGracePeriodSeconds`, grace, 'must not be set for readinessProbes'));
  return errs;
}

function lifecycleErrors(lifecycle: Json, path: string): FieldError[] {
  return ['postStart', 'preStop'].flatMap((hook) => (isSet(lifecycle[hook]) ? handlerErrors(obj(lifecycle[hook]), `${path}.${hook}`, ['exec', 'httpGet', 'tcpSocket']) : []));
}

/** validateResizePolicy (present only where InPlacePodVerticalScaling kept it). */
function resizePolicyErrors(policies: unknown, restartPolicy: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  objects(policies).forEach((p, i) => {
    const resource = text(p['resourceName']);
    if (seen.has(resource)) errs.push(fieldError.duplicate(`${path}[${i}]`, resource));
    seen.add(resource);
    errs.push(...oneOf(p['resourceName'], path, ['cpu', 'memory'], true), ...oneOf(p['restartPolicy'], path, ['NotRequired', 'RestartContainer'], true));
    if (restartPolicy === 'Never' && p['restartPolicy'] !== 'NotRequired') errs.push(fieldError.invalid(path, text(p['restartPolicy']), "must be 'NotRequired' when `restartPolicy` is 'Never'"));
  });
  return errs;
}

/** validateContainerCommon: what every kind of container must satisfy. */
function containerCommonErrors(c: Json, context: ContainerContext, restartPolicy: string, path: string): FieldError[] {
  const name = text(c['name']);
  const errs = name === '' ? [fieldError.required(`${path}.name`)] : dns1123Label(name, `${path}.name`);
  if (text(c['image']) === '') errs.push(fieldError.required(`${path}.image`));
  errs.push(...oneOf(c['terminationMessagePolicy'], `${path}.terminationMessagePolicy`, ['File', 'FallbackToLogsOnError'], true));
  errs.push(...portErrors(c['ports'], `${path}.ports`));
  errs.push(...envErrors(c['env'], `${path}.env`), ...envFromErrors(c['envFrom'], `${path}.envFrom`));
  errs.push(...mountErrors(c, context, `${path}.volumeMounts`), ...deviceErrors(c, context, `${path}.volumeDevices`));
  errs.push(...oneOf(c['imagePullPolicy'], `${path}.imagePullPolicy`, ['Always', 'IfNotPresent', 'Never'], true));
  errs.push(...resourceRequirementsErrors(obj(c['resources']), `${path}.resources`, { allowIndivisibleHugePages: context.allowIndivisibleHugePages }));
  errs.push(...resizePolicyErrors(c['resizePolicy'], restartPolicy, `${path}.resizePolicy`));
  errs.push(...containerSecurityContextErrors(c['securityContext'], `${path}.securityContext`, context.hostUsers));
  return errs;
}

/** AccumulateUniqueHostPorts over the given containers (indexed from `offset`), sharing `seen`. */
function hostPortErrors(containers: readonly Json[], path: string, seen: Set<string>, offset = 0): FieldError[] {
  const errs: FieldError[] = [];
  containers.forEach((c, i) => {
    objects(c['ports']).forEach((p, j) => {
      const hostPort = num(p['hostPort']);
      if (hostPort === 0) return;
      const key = `${text(p['protocol'])}/${text(p['hostIP'])}/${hostPort}`;
      if (seen.has(key)) errs.push(fieldError.duplicate(`${path}[${i + offset}].ports[${j}].hostPort`, key));
      else seen.add(key);
    });
  });
  return errs;
}

/** validateContainers: at least one, unique names, probes and lifecycle checked, host ports unique across them. */
export function containersErrors(containers: unknown, context: ContainerContext, restartPolicy: string, path: string): FieldError[] {
  const list = objects(containers);
  if (list.length === 0) return [fieldError.required(path)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  list.forEach((c, i) => {
    const at = `${path}[${i}]`;
    errs.push(...containerCommonErrors(c, context, restartPolicy, at));
    const name = text(c['name']);
    if (names.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
    else names.add(name);
    if (isSet(c['lifecycle'])) errs.push(...lifecycleErrors(obj(c['lifecycle']), `${at}.lifecycle`));
    errs.push(...probeErrors(c['livenessProbe'], 'livenessProbe', `${at}.livenessProbe`));
    errs.push(...probeErrors(c['readinessProbe'], 'readinessProbe', `${at}.readinessProbe`));
    errs.push(...probeErrors(c['startupProbe'], 'startupProbe', `${at}.startupProbe`));
  });
  return [...errs, ...hostPortErrors(list, path, new Set())];
}

/** validateInitContainers (1.27: no restartable init containers): names unique with the regular ones, no probes or lifecycle. */
export function initContainersErrors(initContainers: unknown, containers: unknown, context: ContainerContext, restartPolicy: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set(objects(containers).map((c) => text(c['name'])));
  objects(initContainers).forEach((c, i) => {
    const at = `${path}[${i}]`;
    errs.push(...containerCommonErrors(c, context, restartPolicy, at));
    const name = text(c['name']);
    if (names.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
    else if (name !== '') names.add(name);
    // Init containers run one at a time: host ports only conflict within one.
    errs.push(...hostPortErrors([c], path, new Set(), i));
    for (const field of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
      if (isSet(c[field])) errs.push(fieldError.forbidden(`${at}.${field}`, 'may not be set for init containers'));
    }
    if (list(c['resizePolicy']).length > 0) errs.push(fieldError.invalid(`${at}.resizePolicy`, c['resizePolicy'], 'must not be set for init containers'));
  });
  return errs;
}

/** The fields an ephemeral container may set (allowedEphemeralContainerFields), by JSON name. */
const ephemeralAllowed = new Set([
  'name', 'image', 'command', 'args', 'workingDir', 'envFrom', 'env', 'volumeMounts', 'volumeDevices', 'terminationMessagePath',
  'terminationMessagePolicy', 'imagePullPolicy', 'securityContext', 'stdin', 'stdinOnce', 'tty', 'targetContainerName',
]);

/** True when a field holds a value other than its Go zero value (validateFieldAllowList's reflection). */
function nonZero(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === 0 || value === false) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.values(value).some(nonZero);
  return true;
}

/** validateEphemeralContainers (the spec-level checks; updates are ValidatePodEphemeralContainersUpdate's). */
export function ephemeralContainersErrors(spec: Json, context: ContainerContext, restartPolicy: string, path: string): FieldError[] {
  const ephemeral = objects(spec['ephemeralContainers']);
  if (ephemeral.length === 0) return [];
  const others = new Set([...objects(spec['containers']), ...objects(spec['initContainers'])].map((c) => text(c['name'])));
  const all = new Set(others);
  const errs: FieldError[] = [];
  ephemeral.forEach((c, i) => {
    const at = `${path}[${i}]`;
    errs.push(...containerCommonErrors(c, context, restartPolicy, at));
    const image = text(c['image']);
    if (image.trim().length !== image.length) errs.push(fieldError.invalid(`${at}.image`, image, 'must not have leading or trailing whitespace'));
    const name = text(c['name']);
    if (all.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
    else all.add(name);
    const target = text(c['targetContainerName']);
    if (target !== '' && !others.has(target)) errs.push(fieldError.notFound(`${at}.targetContainerName`, target));
    for (const [field, value] of Object.entries(c)) {
      if (!ephemeralAllowed.has(field) && nonZero(value)) errs.push(fieldError.forbidden(`${at}.${field}`, 'cannot be set for an Ephemeral Container'));
    }
    objects(c['volumeMounts']).forEach((m, j) => {
      for (const field of ['subPath', 'subPathExpr']) {
        if (text(m[field]) !== '') errs.push(fieldError.forbidden(`${at}.volumeMounts[${j}].${field}`, 'cannot be set for an Ephemeral Container'));
      }
    });
  });
  return errs;
}
