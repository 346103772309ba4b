/**
 * A CustomResourceDefinition's served versions as ResourceDefs (apiextensions-apiserver's crdInfo per version): the
 * discovery facts from its accepted names, one storage key prefix shared by every version, the strategy of its
 * objects, the conversion to its storage version, and what the structural schema adds (pruning, defaulting, printer
 * columns, scale paths, deprecation warnings).
 */
import { apiVersionOf, type KubeObject, type Names } from '@svc-apiserver/api';
import type { ApiSubresource } from '../../schema/catalog.js';
import type { OpenApiSchema } from '../../schema/openapi-schema.js';
import type { ResourceConversion } from '../conversion/resource-conversion.js';
import type { CustomScale, PrinterColumn, ResourceDef } from '../resource-def.js';
import { collectionPrefix } from '../../storage/key.js';
import { acceptedNamesOf, scaleSubresourceOf, schemaOf, specOf, storageVersionOf, versionsOf, type CrdColumn, type CrdVersion, type CustomResourceDefinition } from '../../apiextensions/crd.js';
import { customResourceStrategy } from './custom-resource-strategy.js';
import { conversionWebhook } from './conversion-webhook.js';
import { anonymousAuthInfo } from '../../outbound/auth-info-resolver.js';
import type { ClientConfigResolvers } from '../../outbound/client-config.js';
import { serviceResolver } from '../../outbound/service-resolver.js';
import { applyDefaults } from '../../apiextensions/schema/defaulting.js';
import { isRecord, type JsonSchemaProps } from '../../apiextensions/schema/json-schema-props.js';
import { prune } from '../../apiextensions/schema/pruning.js';
import { compileSchemaRules } from '../../apiextensions/validation-rules/compiled-rules.js';

/** The verbs of every custom resource, in kube's order. */
const customVerbs = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];
const subresourceVerbs = ['get', 'patch', 'update'];

/** kube's description of `metadata.creationTimestamp`, used by the default Age column. */
const creationTimestampDescription =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

/** The printer columns of a version; `Age` when it declares none (kube's serveDefaultColumnsIfEmpty). */
function columnsOf(version: CrdVersion): PrinterColumn[] {
  const declared = Array.isArray(version.additionalPrinterColumns) ? version.additionalPrinterColumns.filter(isRecord) as CrdColumn[] : [];
  if (declared.length === 0) {
    return [{ name: 'Age', type: 'date', format: '', description: creationTimestampDescription, priority: 0, jsonPath: '.metadata.creationTimestamp' }];
  }
  return declared.map((c) => ({
    name: c.name ?? '', type: c.type ?? 'string', format: c.format ?? '', description: c.description ?? '',
    priority: typeof c.priority === 'number' ? c.priority : 0, jsonPath: c.jsonPath ?? '',
  }));
}

/**
 * The None conversion between a served version and the storage version: only `apiVersion` changes (kube's
 * nopConverter).
 */
function noneConversion(
  group: string, groupKey: string, storageVersion: string, resource: string, kind: string, schema: JsonSchemaProps,
): ResourceConversion {
  const storageApiVersion = apiVersionOf(group, storageVersion);
  return {
    storage: { groupKey, version: storageVersion, resource, kind },
    storageApiVersion,
    toStorage: (object: KubeObject) => ({ ...object, apiVersion: storageApiVersion }),
    // Read from storage into this version: the version's own schema defaults apply, as kube defaults on decode.
    fromStorage: (object: KubeObject) => {
      const out = structuredClone(object);
      applyDefaults(schema, out);
      return out;
    },
  };
}

/** What building the defs of a CRD needs besides the CRD. */
export interface CustomResourceDefOptions {
  /** How conversion webhooks' client configs are resolved (their Services, the server's credentials). */
  readonly webhookResolvers?: ClientConfigResolvers;
  /**
   * Whether the schemas' `x-kubernetes-validations` rules are enforced (the CustomResourceValidationExpressions
   * gate; default true, its 1.27 default): kube builds no rule validator with the gate off.
   */
  readonly validationRules?: boolean;
}

/** The served versions of a CRD as ResourceDefs; none when it has no storage version or no accepted kind. */
export function customResourceDefs(crd: CustomResourceDefinition, names: Names, options: CustomResourceDefOptions = {}): ResourceDef[] {
  const spec = specOf(crd);
  const group = spec.group ?? '';
  const plural = spec.names?.plural ?? '';
  const accepted = acceptedNamesOf(crd);
  const kind = accepted.kind || spec.names?.kind || '';
  const storageVersion = storageVersionOf(crd);
  if (group === '' || plural === '' || kind === '' || storageVersion === undefined) return [];
  const groupKey = names.groupKey(group);
  const listKind = accepted.listKind || spec.names?.listKind || `${kind}List`;
  const singular = accepted.singular || spec.names?.singular || kind.toLowerCase();
  const shortNames = Array.isArray(accepted.shortNames) ? accepted.shortNames : [];
  const categories = Array.isArray(accepted.categories) ? accepted.categories : [];
  const namespaced = spec.scope !== 'Cluster';
  const keyPrefix = collectionPrefix(groupKey, plural);
  const conversion = spec.conversion;
  const webhook = conversion?.strategy === 'Webhook' && conversion.webhook?.clientConfig !== undefined
    ? conversionWebhook({
      names, group, kind, storageVersion, clientConfig: conversion.webhook.clientConfig,
      reviewVersions: conversion.webhook.conversionReviewVersions ?? [],
      resolvers: options.webhookResolvers ?? { services: serviceResolver({ service: async () => undefined, endpoints: async () => undefined }), authInfo: anonymousAuthInfo },
    })
    : undefined;
  const defs: ResourceDef[] = [];
  for (const version of versionsOf(crd)) {
    if (version.served !== true || !version.name) continue;
    const schema = schemaOf(version) ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    const hasStatus = isRecord(version.subresources?.status);
    // Compiled once per CRD write; a rule that does not compile was refused when the CRD was written.
    const rules = options.validationRules === false ? undefined : compileSchemaRules(schema, '').root;
    const rawScale = scaleSubresourceOf(version);
    const scale: CustomScale | undefined = rawScale !== undefined && rawScale.specReplicasPath && rawScale.statusReplicasPath
      ? {
        specReplicasPath: rawScale.specReplicasPath, statusReplicasPath: rawScale.statusReplicasPath,
        ...(rawScale.labelSelectorPath ? { labelSelectorPath: rawScale.labelSelectorPath } : {}),
      }
      : undefined;
    const subresources: ApiSubresource[] = [];
    if (hasStatus) subresources.push({ name: 'status', kind, verbs: subresourceVerbs });
    if (scale !== undefined) subresources.push({ name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: subresourceVerbs });
    const deprecationWarning = version.deprecated === true
      ? version.deprecationWarning ?? `${apiVersionOf(group, version.name)} ${kind} is deprecated`
      : undefined;
    defs.push({
      groupKey, group, version: version.name, resource: plural, singularName: singular, kind, listKind, namespaced,
      verbs: customVerbs, shortNames, categories, subresources,
      schemaName: `${group}/${version.name}/${kind}`,
      qualified: { group, resource: plural },
      keyPrefix,
      strategy: customResourceStrategy({
        schema, hasStatus, ...(scale !== undefined ? { scale } : {}), terminating: crd.metadata?.deletionTimestamp !== undefined,
        qualified: { group, resource: plural }, ...(rules !== undefined ? { rules } : {}),
      }),
      ...(version.name !== storageVersion && webhook === undefined ? { conversion: noneConversion(group, groupKey, storageVersion, plural, kind, schema) } : {}),
      custom: {
        schema: schema as OpenApiSchema,
        prune: (object) => prune(schema, object, { root: true }),
        applyDefaults: (object) => applyDefaults(schema, object),
        hasDefaults: JSON.stringify(schema).includes('"default":'),
        columns: columnsOf(version),
        ...(scale !== undefined ? { scale } : {}),
        ...(deprecationWarning !== undefined ? { deprecationWarning } : {}),
        ...(webhook !== undefined ? { converter: webhook } : {}),
      },
    });
  }
  return defs;
}
