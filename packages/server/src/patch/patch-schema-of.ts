/** The strategic-merge-patch view of a served resource's schema, built once per schema. */
import type { ResourceDef } from '../registry/resource-def.js';
import { generatedSchemas } from '../schema/generated-data.js';
import { patchSchemaFromOpenApi, type PatchSchema } from './patch-schema.js';

const bySchemaName = new Map<string, PatchSchema>();

/** The patch schema of a resource (permissive for resources without a known schema). */
export function patchSchemaOf(def: ResourceDef): PatchSchema {
  let schema = bySchemaName.get(def.schemaName);
  if (schema === undefined) {
    schema = patchSchemaFromOpenApi(generatedSchemas(), def.schemaName);
    bySchemaName.set(def.schemaName, schema);
  }
  return schema;
}
