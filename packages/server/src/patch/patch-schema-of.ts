/** The strategic-merge-patch view of a served resource's schema, built once per schema. */
import type { ResourceDef } from '../registry/resource-def.js';
import { generatedSchemas } from '../schema/generated-data.js';
import type { OpenApiSchema } from '../schema/openapi-schema.js';
import { patchSchemaFromOpenApi, type PatchSchema } from './patch-schema.js';

const bySchemaName = new Map<string, PatchSchema>();
const byCustomSchema = new WeakMap<OpenApiSchema, PatchSchema>();

/** The view of a custom resource's structural schema, built once per schema (CRD version). */
function customPatchSchema(schema: OpenApiSchema): PatchSchema {
  let view = byCustomSchema.get(schema);
  if (view === undefined) {
    view = patchSchemaFromOpenApi({ root: schema }, 'root');
    byCustomSchema.set(schema, view);
  }
  return view;
}

/** The patch schema of a resource (permissive for resources without a known schema). */
export function patchSchemaOf(def: ResourceDef): PatchSchema {
  if (def.custom !== undefined) return customPatchSchema(def.custom.schema);
  let schema = bySchemaName.get(def.schemaName);
  if (schema === undefined) {
    schema = patchSchemaFromOpenApi(generatedSchemas(), def.schemaName);
    bySchemaName.set(def.schemaName, schema);
  }
  return schema;
}
