/**
 * discovery/v1 EndpointSlices (pkg/registry/discovery/endpointslice, the discovery/v1 defaults and
 * ValidateEndpointSliceCreate/Update of 1.27, rule by rule): a known address type, immutable; at most 1000
 * endpoints, each with 1 to 100 addresses of that type (IPs as netutils parses them and not special, FQDNs of two
 * or more labels), a node name, zone, hostname, deprecated topology and zone hints that are valid; at most 20000
 * ports with DNS-label names, unique, a protocol (defaulted to TCP, the name to "") and a qualified appProtocol.
 * Generation starts at 1 and moves with any change but metadata's, and with a change of labels. Writes through v1
 * drop `deprecatedTopology` unless an update leaves the endpoints as they were (a stored node name label becomes
 * `nodeName`); zone hints are dropped while TopologyAwareHints is off, unless stored.
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { isDns1123Label, isDns1123Subdomain, isLabelValue } from '../../meta/name-rules.js';
import { defaultFeatureGates, type FeatureGates } from '../../feature-gates.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { dns1123Label, dns1123Subdomain, ipFamilyOf, isSet, list, obj, objects, qualifiedName, text, type Json } from './field-checks.js';
import { nonSpecialEndpointIpErrors } from './endpoints.js';
import { validateLabelMap } from './label-checks.js';
import { immutable, sameJson, setDefault } from './object-fields.js';

const addressTypes = ['FQDN', 'IPv4', 'IPv6'];
const protocols = ['SCTP', 'TCP', 'UDP'];
const maxEndpoints = 1000;
const maxAddresses = 100;
const maxPorts = 20000;
const maxTopologyLabels = 16;
const maxZoneHints = 8;

/** SetDefaults_EndpointPort (discovery/v1): name "" and protocol TCP. */
function defaultPorts(object: KubeObject): void {
  for (const port of objects(object['ports'])) {
    setDefault(port, 'name', '');
    setDefault(port, 'protocol', 'TCP');
  }
  if (Array.isArray(object['ports'])) object['ports'] = objects(object['ports']);
}

/** validation.IsFullyQualifiedDomainName (a trailing dot allowed). */
function fqdnErrors(value: string, path: string): FieldError[] {
  if (value === '') return [fieldError.required(path)];
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  const subdomain = isDns1123Subdomain(name);
  if (subdomain.length > 0) return subdomain.map((msg) => fieldError.invalid(path, name, msg));
  const labels = name.split('.');
  if (labels.length < 2) return [fieldError.invalid(path, name, 'should be a domain with at least two segments separated by dots')];
  return labels.flatMap((label) => isDns1123Label(label).map((msg) => fieldError.invalid(path, label, msg)));
}

/**
 * One address of the slice's type; addresses of an unknown type are not checked. IPs as the Endpoints' are: loopback
 * ones allowed (see {@link nonSpecialEndpointIpErrors}).
 */
function addressErrors(type: string, address: string, path: string): FieldError[] {
  const family = ipFamilyOf(address);
  if (type === 'IPv4') return [...(family === 4 ? [] : [fieldError.invalid(path, address, 'must be a valid IPv4 address')]), ...nonSpecialEndpointIpErrors(address, path)];
  if (type === 'IPv6') return [...(family === 6 ? [] : [fieldError.invalid(path, address, 'must be a valid IPv6 address')]), ...nonSpecialEndpointIpErrors(address, path)];
  if (type === 'FQDN') return fqdnErrors(address, path);
  return [];
}

/** validateHints. */
function hintsErrors(hints: Json, path: string): FieldError[] {
  const zones = objects(hints['forZones']);
  if (zones.length > maxZoneHints) return [fieldError.tooMany(`${path}.forZones`, zones.length, maxZoneHints)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  zones.forEach((z, i) => {
    const at = `${path}.forZones[${i}].name`;
    const name = text(z['name']);
    if (seen.has(name)) errs.push(fieldError.duplicate(at, name));
    seen.add(name);
    for (const msg of isLabelValue(name)) errs.push(fieldError.invalid(at, name, msg));
  });
  return errs;
}

/** validateEndpoints. */
function endpointsErrors(endpoints: Json[], type: string): FieldError[] {
  if (endpoints.length > maxEndpoints) return [fieldError.tooMany('endpoints', endpoints.length, maxEndpoints)];
  const errs: FieldError[] = [];
  endpoints.forEach((ep, i) => {
    const at = `endpoints[${i}]`;
    const addresses = list(ep['addresses']);
    if (addresses.length === 0) errs.push(fieldError.required(`${at}.addresses`, 'must contain at least 1 address'));
    else if (addresses.length > maxAddresses) errs.push(fieldError.tooMany(`${at}.addresses`, addresses.length, maxAddresses));
    addresses.forEach((a, j) => errs.push(...addressErrors(type, text(a), `${at}.addresses[${j}]`)));
    if (isSet(ep['nodeName'])) errs.push(...dns1123Subdomain(text(ep['nodeName']), `${at}.nodeName`));
    const topology = obj(ep['deprecatedTopology']);
    if (Object.keys(topology).length > maxTopologyLabels) errs.push(fieldError.tooMany(`${at}.deprecatedTopology`, Object.keys(topology).length, maxTopologyLabels));
    errs.push(...validateLabelMap(topology, `${at}.deprecatedTopology`));
    if (isSet(ep['zone'])) errs.push(...validateLabelMap({ zone: ep['zone'] }, `${at}.zone`));
    if (isSet(ep['hostname'])) errs.push(...dns1123Label(text(ep['hostname']), `${at}.hostname`));
    if (isSet(ep['hints'])) errs.push(...hintsErrors(obj(ep['hints']), `${at}.hints`));
  });
  return errs;
}

/** validatePorts. */
function portsErrors(ports: Json[]): FieldError[] {
  if (ports.length > maxPorts) return [fieldError.tooMany('ports', ports.length, maxPorts)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const at = `ports[${i}]`;
    const name = text(port['name']);
    if (name !== '') errs.push(...dns1123Label(name, `${at}.name`));
    if (names.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
    names.add(name);
    if (!isSet(port['protocol'])) errs.push(fieldError.required(`${at}.protocol`));
    else if (!protocols.includes(text(port['protocol']))) errs.push(fieldError.notSupported(`${at}.protocol`, port['protocol'], protocols));
    if (isSet(port['appProtocol'])) errs.push(...qualifiedName(text(port['appProtocol']), `${at}.appProtocol`));
  });
  return errs;
}

/** ValidateEndpointSlice. */
function validateSlice(object: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const type = text(object['addressType']);
  if (type === '') errs.push(fieldError.required('addressType'));
  else if (!addressTypes.includes(type)) errs.push(fieldError.notSupported('addressType', type, addressTypes));
  return [...errs, ...endpointsErrors(objects(object['endpoints']), type), ...portsErrors(objects(object['ports']))];
}

/** The node names the stored slice's deprecated topology holds (getDeprecatedTopologyNodeNames). */
function topologyNodeNames(old: KubeObject | undefined, hostnameLabel: string): Set<string> {
  const out = new Set<string>();
  for (const ep of objects(old?.['endpoints'])) {
    const name = obj(ep['deprecatedTopology'])[hostnameLabel];
    if (typeof name === 'string') out.add(name);
  }
  return out;
}

/** dropTopologyOnV1: v1 writes may not set deprecatedTopology; a node name kept there moves to `nodeName`. */
function dropTopology(object: KubeObject, old: KubeObject | undefined, hostnameLabel: string): void {
  if (old !== undefined && sameJson(object['endpoints'] ?? null, old['endpoints'] ?? null)) return;
  const previous = topologyNodeNames(old, hostnameLabel);
  for (const ep of objects(object['endpoints'])) {
    const name = obj(ep['deprecatedTopology'])[hostnameLabel];
    if (!isSet(ep['nodeName']) && typeof name === 'string' && previous.has(name) && isDns1123Subdomain(name).length === 0) ep['nodeName'] = name;
    delete ep['deprecatedTopology'];
  }
}

/** dropDisabledFieldsOnCreate/Update: zone hints while TopologyAwareHints is off, unless the stored slice has them. */
function dropHints(object: KubeObject, old: KubeObject | undefined, gates: FeatureGates): void {
  if (gates.TopologyAwareHints) return;
  if (old !== undefined && objects(old['endpoints']).some((ep) => isSet(ep['hints']))) return;
  for (const ep of objects(object['endpoints'])) delete ep['hints'];
}

/** The endpointslice strategy of a flavour (the node name label is `<domain>/hostname`). */
export function endpointSliceStrategy(names: Names, gates: FeatureGates = defaultFeatureGates): Strategy {
  const hostnameLabel = names.domain('hostname');
  const prepare = (object: KubeObject, old?: KubeObject): void => {
    if (Array.isArray(object['endpoints'])) object['endpoints'] = objects(object['endpoints']);
    dropHints(object, old, gates);
    dropTopology(object, old, hostnameLabel);
  };
  return defineStrategy({
    tracksGeneration: true,
    defaults: defaultPorts,
    prepareForCreate: (object) => prepare(object),
    prepareForUpdate(object, old) {
      prepare(object, old);
      // The generic bump covers everything but metadata; kube's slice strategy bumps on labels too.
      const meta = object.metadata ?? {};
      if (!sameJson(meta.labels ?? {}, old.metadata?.labels ?? {})) meta.generation = (old.metadata?.generation ?? 0) + 1;
    },
    validate: validateSlice,
    validateUpdate: (object, old) => [...validateSlice(object), ...immutable('addressType', object['addressType'], old['addressType'])],
  });
}
