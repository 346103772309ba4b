/**
 * The subset of an OpenAPI v3 schema object (as Kubernetes publishes `components.schemas`) that the server reads.
 */

/** One schema node. `$ref` is `#/components/schemas/<name>` upstream; the generated data keeps it that way. */
export interface OpenApiSchema {
  readonly type?: string;
  readonly format?: string;
  readonly properties?: Readonly<Record<string, OpenApiSchema>>;
  readonly required?: readonly string[];
  readonly items?: OpenApiSchema;
  readonly additionalProperties?: OpenApiSchema | boolean;
  readonly enum?: readonly unknown[];
  readonly allOf?: readonly OpenApiSchema[];
  readonly oneOf?: readonly OpenApiSchema[];
  readonly $ref?: string;
  readonly default?: unknown;
  readonly 'x-kubernetes-int-or-string'?: boolean;
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
  readonly 'x-kubernetes-embedded-resource'?: boolean;
  readonly [extension: `x-${string}`]: unknown;
}

/** components.schemas: schema name → schema. */
export type SchemaMap = Readonly<Record<string, OpenApiSchema>>;

/** Prefix of a v3 reference to a named schema. */
export const componentsRefPrefix = '#/components/schemas/';

/** The schema name a `$ref` points to. */
export function refName(ref: string): string {
  return ref.startsWith(componentsRefPrefix) ? ref.slice(componentsRefPrefix.length) : ref;
}

/** Name of the Quantity type, which accepts a string or a number (`resource.Quantity`). */
export const quantitySchemaName = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
/** Name of the IntOrString type. */
export const intOrStringSchemaName = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
