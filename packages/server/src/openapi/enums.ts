/**
 * The enums kube-apiserver 1.27 publishes in its OpenAPI (the OpenAPIEnums feature, on by default): a property whose
 * Go type is an enum carries `enum` with its values and a description ending in kube-openapi's "Possible enum
 * values" list. The checked-in upstream documents lack them; generated/openapi-enums.json holds them.
 */
import { readGenerated } from '../schema/generated-data.js';

interface PublishedEnum {
  readonly enum: readonly string[];
  readonly description: string;
}

type EnumTable = Readonly<Record<string, Readonly<Record<string, PublishedEnum>>>>;

let table: EnumTable | undefined;

function enums(): EnumTable {
  table ??= readGenerated<EnumTable>('openapi-enums.json');
  return table;
}

/**
 * A copy of a components.schemas entry with its enum properties published as kube-openapi writes them: `enum`,
 * and the description followed by a blank line and the list of values (the list alone when there is no
 * description).
 */
export function withPublishedEnums(schemaName: string, schema: unknown): unknown {
  const fields = enums()[schemaName];
  if (fields === undefined || typeof schema !== 'object' || schema === null) return schema;
  const source = schema as { properties?: Record<string, Record<string, unknown>> };
  if (source.properties === undefined) return schema;
  const properties: Record<string, Record<string, unknown>> = { ...source.properties };
  for (const [name, published] of Object.entries(fields)) {
    const prop = properties[name];
    if (prop === undefined) continue;
    const own = typeof prop['description'] === 'string' && prop['description'] !== '' ? `${prop['description']}\n\n` : '';
    properties[name] = { ...prop, description: own + published.description, enum: [...published.enum] };
  }
  return { ...source, properties };
}
