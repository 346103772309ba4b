/** The strategic-merge-patch view of a served resource's schema, built once per schema. */
import type { ApiResource } from '../schema/catalog.js';
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

/**
 * The patch schema of a resource (permissive for resources without a known schema); a custom resource's comes
 * from its CRD version's structural schema.
 */
export function patchSchemaOf(resource: Pick<ApiResource, 'schemaName'> & { readonly custom?: { readonly schema: OpenApiSchema } }): PatchSchema {
  if (resource.custom !== undefined) return customPatchSchema(resource.custom.schema);
  let schema = bySchemaName.get(resource.schemaName);
  if (schema === undefined) {
    schema = patchSchemaFromOpenApi(generatedSchemas(), resource.schemaName);
    bySchemaName.set(resource.schemaName, schema);
  }
  return schema;
}
