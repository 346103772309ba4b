/** The strategic-merge-patch view of a served resource's schema, built once per schema. */
import type { ApiResource } from '../schema/catalog.js';
import { generatedSchemas } from '../schema/generated-data.js';
import { patchSchemaFromOpenApi, type PatchSchema } from './patch-schema.js';

const bySchemaName = new Map<string, PatchSchema>();

/** The patch schema of a resource (permissive for resources without a known schema). */
export function patchSchemaOf(resource: Pick<ApiResource, 'schemaName'>): PatchSchema {
  let schema = bySchemaName.get(resource.schemaName);
  if (schema === undefined) {
    schema = patchSchemaFromOpenApi(generatedSchemas(), resource.schemaName);
    bySchemaName.set(resource.schemaName, schema);
  }
  return schema;
}
