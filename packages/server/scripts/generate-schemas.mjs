#!/usr/bin/env node
/**
 * Generates packages/server/generated/ from the upstream Kubernetes 1.27 data in packages/server/upstream/.
 *
 * Usage (from the repo root): `npm run generate [-- <k8s-1.27 reference folder>]`; `--check` writes nothing and
 * exits 1 when a generated file differs from what the upstream copies make (the test suite runs it).
 * With a folder argument (default `../shared/k8s-1.27` relative to the repo root, used only when it exists),
 * the upstream files the project needs are first copied into packages/server/upstream/k8s-1.27/; when the copies
 * already exist and no folder is given, the data is regenerated from the copies alone.
 *
 * Outputs (names stay upstream, `*.k8s.io`; the server renames them at load through the naming module):
 * - generated/resources.json: one entry per group-version with its resources, as kube-apiserver 1.27 discovery
 *   reports them, derived from the OpenAPI v3 `paths` plus a small table of short names and categories.
 * - generated/schemas.json: every components.schemas entry of every group-version, merged and without
 *   descriptions, for the validator (loaded at start, so kept small).
 * - generated/discovery-v2.json: what only the Swagger 2.0 document has (discovery definitions and paths).
 * - generated/openapi-enums.json: the enums kube-apiserver 1.27 publishes (upstream/k8s-1.27/openapi-enums.json),
 *   checked against the schemas: per schema and property, the values and the "Possible enum values" text appended
 *   to the property's description (kube-openapi's format).
 * - generated/bootstrap-policy.json: the default RBAC policy (upstream/k8s-1.27/bootstrap-policy/*.yaml) as JSON,
 *   read at every start (parsing the YAML there cost a third of a second).
 * - generated/protobuf-messages.cjs: the protobuf encoders and decoders of every message type of the upstream
 *   generated.proto files (scripts/generate-protobuf.mjs).
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { generateProtobuf } from './generate-protobuf.mjs';

const serverDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = resolve(serverDir, '..', '..');
const upstreamDir = join(serverDir, 'upstream', 'k8s-1.27');
const generatedDir = join(serverDir, 'generated');
const v3Dir = join(upstreamDir, 'openapi-v3');
const gnosticProto = join('proto', 'gnostic', 'openapiv2', 'OpenAPIv2.proto');
/** The reference v2 document, used only for the definitions and paths that exist in v2 alone. */
const referenceV2 = join('openapi-v2', 'reference-1.28', 'swagger.json');

const renamedGroupKeys = readRenamedGroupKeys();
const check = process.argv.includes('--check');
/** The generated files that differ from what is committed (with `--check`). */
const stale = [];

/** Writes a generated file, or with `--check` notes it when its committed text differs. */
function emit(path, text) {
  if (!check) return writeFileSync(path, text);
  if (!existsSync(path) || readFileSync(path, 'utf8') !== text) stale.push(path);
}

/**
 * Short names and categories kube-apiserver 1.27 reports in discovery (they come from Go code, not from OpenAPI),
 * keyed by `<upstream group>/<resource>` (core group: `/<resource>`).
 */
const discoveryExtras = {
  '/componentstatuses': { shortNames: ['cs'] },
  '/configmaps': { shortNames: ['cm'] },
  '/endpoints': { shortNames: ['ep'] },
  '/events': { shortNames: ['ev'] },
  '/limitranges': { shortNames: ['limits'] },
  '/namespaces': { shortNames: ['ns'] },
  '/nodes': { shortNames: ['no'] },
  '/persistentvolumeclaims': { shortNames: ['pvc'] },
  '/persistentvolumes': { shortNames: ['pv'] },
  '/pods': { shortNames: ['po'], categories: ['all'] },
  '/replicationcontrollers': { shortNames: ['rc'], categories: ['all'] },
  '/resourcequotas': { shortNames: ['quota'] },
  '/serviceaccounts': { shortNames: ['sa'] },
  '/services': { shortNames: ['svc'], categories: ['all'] },
  'apps/daemonsets': { shortNames: ['ds'], categories: ['all'] },
  'apps/deployments': { shortNames: ['deploy'], categories: ['all'] },
  'apps/replicasets': { shortNames: ['rs'], categories: ['all'] },
  'apps/statefulsets': { shortNames: ['sts'], categories: ['all'] },
  'autoscaling/horizontalpodautoscalers': { shortNames: ['hpa'], categories: ['all'] },
  'batch/cronjobs': { shortNames: ['cj'], categories: ['all'] },
  'batch/jobs': { categories: ['all'] },
  'certificates.k8s.io/certificatesigningrequests': { shortNames: ['csr'] },
  'events.k8s.io/events': { shortNames: ['ev'] },
  'networking.k8s.io/ingresses': { shortNames: ['ing'] },
  'networking.k8s.io/networkpolicies': { shortNames: ['netpol'] },
  'networking.k8s.io/ipaddresses': { shortNames: ['ip'] },
  'policy/poddisruptionbudgets': { shortNames: ['pdb'] },
  'scheduling.k8s.io/priorityclasses': { shortNames: ['pc'] },
  'storage.k8s.io/storageclasses': { shortNames: ['sc'] },
  'apiextensions.k8s.io/customresourcedefinitions': { shortNames: ['crd', 'crds'], categories: ['api-extensions'] },
  'apiregistration.k8s.io/apiservices': { categories: ['api-extensions'] },
  'admissionregistration.k8s.io/mutatingwebhookconfigurations': { categories: ['api-extensions'] },
  'admissionregistration.k8s.io/validatingwebhookconfigurations': { categories: ['api-extensions'] },
  'admissionregistration.k8s.io/validatingadmissionpolicies': { categories: ['api-extensions'] },
  'admissionregistration.k8s.io/validatingadmissionpolicybindings': { categories: ['api-extensions'] },
};

/** `x-kubernetes-action` → discovery verb. `connect` operations use their HTTP method instead. */
const actionVerbs = {
  get: 'get', list: 'list', watch: 'watch', watchlist: 'watch', post: 'create', put: 'update', patch: 'patch',
  delete: 'delete', deletecollection: 'deletecollection',
};
const methodVerbs = { get: 'get', post: 'create', put: 'update', patch: 'patch', delete: 'delete' };
const httpMethods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

function main() {
  const argFolder = process.argv.slice(2).find((a) => !a.startsWith('--'));
  const source = argFolder ? resolve(argFolder) : resolve(repoRoot, '..', 'shared', 'k8s-1.27');
  if (!check && (argFolder || !existsSync(v3Dir))) copyUpstream(source);
  mkdirSync(generatedDir, { recursive: true });

  const files = readdirSync(v3Dir).filter((f) => f.endsWith('_openapi.json')).sort();
  const groupVersions = [];
  const schemas = {};
  for (const file of files) {
    const doc = JSON.parse(readFileSync(join(v3Dir, file), 'utf8'));
    groupVersions.push(deriveGroupVersion(file, doc));
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      const slim = stripDescriptions(schema);
      if (name in schemas && JSON.stringify(schemas[name]) !== JSON.stringify(slim)) {
        throw new Error(`schema ${name} differs between group-versions (${file})`);
      }
      schemas[name] = slim;
    }
  }
  groupVersions.sort((a, b) => (a.group === '' ? -1 : b.group === '' ? 1 : a.group.localeCompare(b.group) || a.version.localeCompare(b.version)));
  writeJson('resources.json', { source: 'kubernetes v1.27 OpenAPI v3', groupVersions });
  writeJson('schemas.json', sortKeys(schemas));
  writeJson('discovery-v2.json', discoveryV2());
  writeJson('openapi-enums.json', openapiEnums(schemas));
  writeJson('bootstrap-policy.json', bootstrapPolicy());
  const count = groupVersions.reduce((n, gv) => n + gv.resources.length, 0);
  console.log(`generated ${groupVersions.length} group-versions, ${count} resources, ${Object.keys(schemas).length} schemas`);
  // The protobuf encoders and decoders read the schemas just written.
  console.log(`generated the encoders and decoders of ${generateProtobuf(emit)} protobuf message types`);
  if (check) {
    if (stale.length > 0) {
      console.error(`generated files differ from what the upstream data makes (run npm run generate):\n${stale.join('\n')}`);
      process.exitCode = 1;
    } else {
      console.log('every generated file is what the upstream data makes');
    }
  }
}

/**
 * The default RBAC policy, upstream names kept: the items of each policy file, the controller roles and bindings
 * after the others (kube's ClusterRoles() then ControllerRoles()).
 */
function bootstrapPolicy() {
  const dir = join(upstreamDir, 'bootstrap-policy');
  const items = (file) => {
    const doc = parseYaml(readFileSync(join(dir, file), 'utf8'));
    if (!doc || !Array.isArray(doc.items)) throw new Error(`bootstrap policy file ${file} has no items`);
    return doc.items;
  };
  return {
    source: 'kubernetes v1.27 bootstrap policy',
    clusterRoles: [...items('cluster-roles.yaml'), ...items('controller-roles.yaml')],
    clusterRoleBindings: [...items('cluster-role-bindings.yaml'), ...items('controller-role-bindings.yaml')],
    roles: items('namespace-roles.yaml'),
    roleBindings: items('namespace-role-bindings.yaml'),
  };
}

/**
 * The published enums of the schemas that exist here: `{ <schema>: { <property>: { enum, description } } }`, where
 * `description` is what kube-openapi appends to the property's own description (after a blank line). A property
 * the table names that is absent from a present schema is an error (the table and the documents disagree).
 */
function openapiEnums(schemas) {
  const table = JSON.parse(readFileSync(join(upstreamDir, 'openapi-enums.json'), 'utf8'));
  const out = {};
  let count = 0;
  for (const [schemaName, fields] of Object.entries(table.fields)) {
    const schema = schemas[schemaName];
    if (!schema) continue;
    for (const [property, { enum: values, lines }] of Object.entries(fields)) {
      const prop = schema.properties?.[property];
      if (!prop) throw new Error(`openapi-enums.json names ${schemaName}.${property}, which the schemas lack`);
      if (prop.type !== 'string') throw new Error(`${schemaName}.${property} is an enum but not a string`);
      (out[schemaName] ??= {})[property] = { enum: values, description: ['Possible enum values:', ...lines].join('\n') };
      count++;
    }
  }
  console.log(`${count} enum properties`);
  return sortKeys(out);
}

/** Copies the upstream files the server needs (the product never reads the reference folder at run time). */
function copyUpstream(source) {
  if (!existsSync(join(source, 'openapi-v3'))) {
    throw new Error(`no upstream copies and no reference folder at ${source}; pass the folder as an argument`);
  }
  mkdirSync(v3Dir, { recursive: true });
  const files = readdirSync(join(source, 'openapi-v3')).filter((f) => f.endsWith('_openapi.json'));
  for (const f of files) copyWritable(join(source, 'openapi-v3', f), join(v3Dir, f));
  mkdirSync(dirname(join(upstreamDir, gnosticProto)), { recursive: true });
  copyWritable(join(source, gnosticProto), join(upstreamDir, gnosticProto));
  const kubeProtos = copyTree(join(source, 'proto', 'k8s.io'), join(upstreamDir, 'proto', 'k8s.io'), '.proto');
  // Only the v2-only parts of the reference v2 document are kept (as a trimmed JSON), not the 3 MiB whole.
  const ref = JSON.parse(readFileSync(join(source, referenceV2), 'utf8'));
  const v2only = {
    definitions: Object.fromEntries(v2OnlyDefinitions.map((n) => [n, ref.definitions[n]])),
    paths: Object.fromEntries(v2OnlyPaths.map((p) => [p, ref.paths[p]])),
    securityDefinitions: ref.securityDefinitions,
    security: ref.security,
    info: ref.info,
  };
  mkdirSync(join(upstreamDir, 'openapi-v2'), { recursive: true });
  emit(join(upstreamDir, 'openapi-v2', 'v2-only.json'), JSON.stringify(sortKeys(v2only), null, 1) + '\n');
  console.log(`copied ${files.length} OpenAPI v3 documents, ${kubeProtos} generated.proto files, the gnostic OpenAPIv2.proto and the v2-only parts`);
}

/** Copies every file ending in `suffix` under `from` to the same relative path under `to`; returns how many. */
function copyTree(from, to, suffix) {
  let count = 0;
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const src = join(from, entry.name);
    if (entry.isDirectory()) {
      count += copyTree(src, join(to, entry.name), suffix);
    } else if (entry.name.endsWith(suffix)) {
      mkdirSync(to, { recursive: true });
      copyWritable(src, join(to, entry.name));
      count++;
    }
  }
  return count;
}

/** Copies a file and makes the copy writable (the reference files may be read-only), so a later copy can replace it. */
function copyWritable(from, to) {
  copyFileSync(from, to);
  chmodSync(to, 0o644);
}

const v2OnlyDefinitions = [
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIGroupList',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIVersions',
  'io.k8s.apimachinery.pkg.apis.meta.v1.GroupVersionForDiscovery',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ServerAddressByClientCIDR',
  'io.k8s.apimachinery.pkg.version.Info',
];
/** v2 paths with no v3 group-version document; `/apis/coordination.k8s.io/` is the template of every group's path. */
const v2OnlyPaths = ['/api/', '/apis/', '/version/', '/apis/coordination.k8s.io/'];

/** The v2-only definitions and paths, with the group path turned into a template. */
function discoveryV2() {
  const src = JSON.parse(readFileSync(join(upstreamDir, 'openapi-v2', 'v2-only.json'), 'utf8'));
  const groupPath = src.paths['/apis/coordination.k8s.io/'];
  return {
    definitions: src.definitions,
    paths: { '/api/': src.paths['/api/'], '/apis/': src.paths['/apis/'], '/version/': src.paths['/version/'] },
    groupPathTemplate: groupPath,
    securityDefinitions: src.securityDefinitions,
    security: src.security,
    info: src.info,
  };
}

/** `apis__coordination.k8s.io__v1_openapi.json` → group `coordination.k8s.io`, version `v1`. */
function parseFileName(file) {
  const parts = file.replace(/_openapi\.json$/, '').split('__');
  if (parts[0] === 'api') return { group: '', version: parts[1] };
  return { group: parts[1], version: parts[2] };
}

function deriveGroupVersion(file, doc) {
  const { group, version } = parseFileName(file);
  const prefix = group === '' ? `/api/${version}/` : `/apis/${group}/${version}/`;
  /** resource → accumulated facts */
  const byResource = new Map();
  const get = (name) => {
    let r = byResource.get(name);
    if (!r) {
      r = { resource: name, namespaced: false, verbs: new Set(), kind: undefined, schemaName: undefined, subresources: new Map() };
      byResource.set(name, r);
    }
    return r;
  };
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith(prefix)) continue;
    let segs = path.slice(prefix.length).split('/').filter(Boolean);
    if (segs.length === 0) continue;
    if (segs[0] === 'watch') segs = segs.slice(1);
    let namespaced = false;
    if (segs[0] === 'namespaces' && segs[1] === '{namespace}' && segs.length > 2) {
      namespaced = true;
      segs = segs.slice(2);
    }
    const [resourceName, nameSeg, sub] = segs;
    if (nameSeg !== undefined && nameSeg !== '{name}') throw new Error(`unexpected path shape ${path}`);
    const r = get(resourceName);
    if (namespaced) r.namespaced = true;
    for (const method of httpMethods) {
      const op = item[method];
      if (!op) continue;
      const action = op['x-kubernetes-action'];
      const verb = action === 'connect' ? methodVerbs[method] : actionVerbs[action];
      if (!verb) continue;
      const gvk = op['x-kubernetes-group-version-kind'];
      const ref = schemaRef(op, method);
      if (sub === undefined) {
        r.verbs.add(verb);
        // The resource's kind and schema come from the single-object operations (get/create/update) first.
        if (gvk && (r.kind === undefined || ['get', 'put', 'post'].includes(method) && !r.fromItem)) {
          r.kind = gvk.kind;
          if (ref) r.schemaName = ref;
          if (nameSeg !== undefined || action === 'post') r.fromItem = true;
        }
        if (!r.schemaName && ref && gvk && ref.endsWith(`.${gvk.kind}`)) r.schemaName = ref;
      } else {
        let s = r.subresources.get(sub);
        if (!s) {
          s = { name: sub, verbs: new Set(), gvk: undefined, schemaName: undefined };
          r.subresources.set(sub, s);
        }
        s.verbs.add(verb);
        if (gvk && !s.gvk) s.gvk = gvk;
        if (ref && !s.schemaName) s.schemaName = ref;
      }
    }
  }
  const resources = [];
  for (const r of [...byResource.values()].sort((a, b) => a.resource.localeCompare(b.resource))) {
    if (!r.kind || r.verbs.size === 0) throw new Error(`no kind or verbs for ${group}/${version} ${r.resource}`);
    const extras = discoveryExtras[`${group}/${r.resource}`] ?? {};
    resources.push({
      resource: r.resource,
      singularName: r.kind.toLowerCase(),
      kind: r.kind,
      listKind: `${r.kind}List`,
      namespaced: r.namespaced,
      verbs: [...r.verbs].sort(),
      shortNames: extras.shortNames ?? [],
      categories: extras.categories ?? [],
      schemaName: r.schemaName ?? '',
      subresources: [...r.subresources.values()].sort((a, b) => a.name.localeCompare(b.name)).map((s) => {
        const out = { name: s.name, kind: s.gvk?.kind ?? r.kind, verbs: [...s.verbs].sort() };
        if (s.gvk && (s.gvk.group !== group || s.gvk.version !== version)) {
          out.group = s.gvk.group;
          out.version = s.gvk.version;
        }
        if (s.schemaName) out.schemaName = s.schemaName;
        return out;
      }),
    });
  }
  const groupKey = neutralGroupKey(group);
  return { group, groupKey, version, file, resources };
}

/** The components.schemas name of an operation's body or 200/201 response. */
function schemaRef(op, method) {
  const pick = (content) => {
    if (!content) return undefined;
    const first = content['application/json'] ?? content['*/*'] ?? Object.values(content)[0];
    const ref = first?.schema?.$ref;
    return typeof ref === 'string' ? ref.replace('#/components/schemas/', '') : undefined;
  };
  if (method === 'post' || method === 'put') {
    const body = pick(op.requestBody?.content);
    if (body) return body;
  }
  return pick(op.responses?.['200']?.content) ?? pick(op.responses?.['201']?.content);
}

function neutralGroupKey(group) {
  if (group.endsWith('.k8s.io')) {
    const key = group.slice(0, -'.k8s.io'.length);
    if (renamedGroupKeys.includes(key)) return key;
  }
  return group;
}

/** Reads `renamedGroupKeys` from the naming module's source (this script needs no TypeScript build). */
function readRenamedGroupKeys() {
  const src = readFileSync(join(repoRoot, 'packages', 'api', 'src', 'naming.ts'), 'utf8');
  const m = /export const renamedGroupKeys = \[([\s\S]*?)\]/.exec(src);
  if (!m) throw new Error('renamedGroupKeys not found in packages/api/src/naming.ts');
  // Line comments first: an apostrophe in one (`file's`) would pair with the quotes of the names after it.
  const entries = m[1].replace(/\/\/[^\n]*/g, '');
  return [...entries.matchAll(/'([^']+)'/g)].map((x) => x[1]);
}

/** Drops `description` keys (not property names called `description`). */
function stripDescriptions(schema) {
  if (Array.isArray(schema)) return schema.map(stripDescriptions);
  if (schema === null || typeof schema !== 'object') return schema;
  const out = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'description') continue;
    if (k === 'properties') out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, stripDescriptions(s)]));
    else if (k === 'default' || k === 'enum' || k.startsWith('x-kubernetes-')) out[k] = v;
    else out[k] = stripDescriptions(v);
  }
  return out;
}

function sortKeys(obj) {
  return Object.fromEntries(Object.keys(obj).sort().map((k) => [k, obj[k]]));
}

function writeJson(name, data) {
  emit(join(generatedDir, name), JSON.stringify(data) + '\n');
}

main();
