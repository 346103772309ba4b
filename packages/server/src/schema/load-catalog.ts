/**
 * Loads the catalog of built-in resources from the generated data, renaming upstream groups into the server's
 * flavour (kube-apiserver 1.27's discovery facts with `*.k8s.io` groups served under the flavour's names).
 */
import type { Names } from '@svc-apiserver/api';
import type { ApiResource, ApiSubresource, Catalog, SchemaValidator } from './catalog.js';
import { generatedResources, generatedSchemas, type GeneratedSubresource } from './generated-data.js';
import { createSchemaValidator } from './validator.js';

let sharedValidator: SchemaValidator | undefined;

/**
 * The catalog in the flavour of `names`. The generated files are parsed once per process and the validator
 * (schemas are flavour-independent) is shared, so several servers in one process load it once.
 */
export function loadCatalog(names: Names): Catalog {
  const data = generatedResources();
  const resources: ApiResource[] = [];
  for (const gv of data.groupVersions) {
    const group = names.group(gv.groupKey);
    for (const r of gv.resources) {
      resources.push({
        groupKey: gv.groupKey,
        group,
        version: gv.version,
        resource: r.resource,
        singularName: r.singularName,
        kind: r.kind,
        listKind: r.listKind,
        namespaced: r.namespaced,
        verbs: r.verbs,
        shortNames: r.shortNames,
        categories: r.categories,
        subresources: r.subresources.map((s) => renameSubresource(s, names)),
        schemaName: r.schemaName,
      });
    }
  }
  sharedValidator ??= createSchemaValidator(generatedSchemas());
  return { names, resources, validator: sharedValidator };
}

/** A subresource's kind may live in another group (`policy` Eviction, `authentication.k8s.io` TokenRequest). */
function renameSubresource(s: GeneratedSubresource, names: Names): ApiSubresource {
  return s.group === undefined ? s : { ...s, group: names.fromUpstream(s.group) };
}
