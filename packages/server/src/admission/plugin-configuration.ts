/**
 * Reading a plugin's configuration document from the admission configuration file: the document's `apiVersion`
 * must be one of the plugin's versions of its group and its `kind` the plugin's (kube decodes it through the
 * plugin's own scheme and refuses anything else). Failures are the plugin's {@link PluginConfigurationError}.
 */
import { fail, ok, type Fail, type Result } from '@svc-apiserver/api';
import type { AdmissionPlugin, PluginConfigurationError } from './plugin.js';

/** An object of a configuration document. */
export type ConfigFields = Record<string, unknown>;

/** A configuration document, absent (the plugin's defaults apply), or why it is refused. */
export type ConfigurationRead = Result<ConfigFields | undefined, PluginConfigurationError>;

/** The object at `value`, or undefined. */
export function configFields(value: unknown): ConfigFields | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as ConfigFields) : undefined;
}

/** A refusal of plugin `name`'s configuration. */
export function configurationError(name: string, error: string): Fail<PluginConfigurationError> {
  return fail({ name, error: `${name}: invalid configuration: ${error}` });
}

/** Reads `raw` as a document of `kind` in one of `apiVersions`; undefined `raw` is no configuration. */
export function versionedConfiguration(plugin: string, raw: unknown, apiVersions: readonly string[], kind: string): ConfigurationRead {
  if (raw === undefined || raw === null) return ok(undefined);
  const doc = configFields(raw);
  if (doc === undefined) return configurationError(plugin, 'the configuration must be an object');
  const apiVersion = doc['apiVersion'];
  if (typeof apiVersion !== 'string' || !apiVersions.includes(apiVersion)) {
    return configurationError(plugin, `apiVersion ${JSON.stringify(apiVersion ?? '')} is not one of ${apiVersions.join(', ')}`);
  }
  if (doc['kind'] !== kind) return configurationError(plugin, `no kind ${JSON.stringify(doc['kind'] ?? '')} is registered for version "${apiVersion}"`);
  return ok(doc);
}

/** A non-negative integer field, or the default when absent; undefined when it is of another type. */
export function intField(doc: ConfigFields, key: string, fallback: number): number | undefined {
  const v = doc[key];
  if (v === undefined || v === null) return fallback;
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}

/** A list of strings field ([] when absent); undefined when it holds anything else. */
export function stringListField(doc: ConfigFields, key: string): string[] | undefined {
  const v = doc[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) return undefined;
  return v as string[];
}

/** The name of the plugin a factory made or refused to make. */
export function madeName(made: Result<AdmissionPlugin, PluginConfigurationError>): string {
  return made.ok ? made.value.name : made.error.name;
}
