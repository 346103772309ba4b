/**
 * Column descriptions: kube-apiserver's printers describe most columns with the Go doc of the field they show
 * (`metav1.ObjectMeta{}.SwaggerDoc()["name"]`), which is the field's description in the upstream OpenAPI document.
 * Read from the upstream v3 documents on the first Table request, once per document.
 */
import { generatedResources, readUpstreamV3 } from '../../schema/generated-data.js';

type Schemas = Record<string, { properties?: Record<string, { description?: string }> }>;

const docs = new Map<string, Schemas>();

function fileOf(schemaName: string): string | undefined {
  if (schemaName.startsWith('io.k8s.apimachinery.') || schemaName.startsWith('io.k8s.api.core.')) return 'api__v1_openapi.json';
  const m = /^io\.k8s\.api\.([a-z0-9]+)\.([a-z0-9]+)\./.exec(schemaName);
  if (!m) return undefined;
  const gv = generatedResources().groupVersions.find((g) => g.groupKey.split('.')[0] === m[1] && g.version === m[2]);
  return gv?.file;
}

/** The description of `field` in the schema `schemaName` (upstream name); '' when unknown. */
export function fieldDoc(schemaName: string, field: string): string {
  const file = fileOf(schemaName);
  if (file === undefined) return '';
  let schemas = docs.get(file);
  if (schemas === undefined) {
    try {
      schemas = ((readUpstreamV3(file) as { components?: { schemas?: Schemas } }).components?.schemas) ?? {};
    } catch {
      schemas = {};
    }
    docs.set(file, schemas);
  }
  return schemas[schemaName]?.properties?.[field]?.description ?? '';
}
