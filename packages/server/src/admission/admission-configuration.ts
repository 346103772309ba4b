/**
 * The admission configuration file of `--admission-control-config-file` (document 3 §Admission controllers; kube's
 * ReadAdmissionConfiguration): kind `AdmissionConfiguration` in `apiserver.config.svc.io/v1` or the older
 * `apiserver.svc.io/v1alpha1`, whose `plugins[]` give each plugin's configuration by `name`, either inline
 * (`configuration`) or as a file (`path`, relative to the configuration file's folder). A file that is not an
 * AdmissionConfiguration but one of the two unversioned legacy forms (`imagePolicy:` or
 * `podNodeSelectorPluginConfig:` at the top) configures ImagePolicyWebhook and PodNodeSelector as a whole.
 * YAML or JSON; failures are messages that stop the start.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';
import { fail, type Names, ok, type Result } from '@svc-apiserver/api';

/** The configurations of the file, by plugin name. */
export interface AdmissionConfiguration {
  /** The file read. */
  readonly path: string;
  /** The configuration document of plugin `name` (a parsed object), undefined when the file gives none. */
  configuration(name: string): unknown;
}

/** Plugins whose configuration predates versioned files and may be the whole file. */
const legacyUnversioned = [['imagePolicy', 'ImagePolicyWebhook'], ['podNodeSelectorPluginConfig', 'PodNodeSelector']] as const;

type Fields = Record<string, unknown>;
const fieldsOf = (v: unknown): Fields | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Fields) : undefined);

/**
 * Parses YAML or JSON text of a configuration document; aliases are bounded (a file is not trusted to be small
 * once expanded).
 */
export function parseConfigurationDocument(text: string, where: string): Result<unknown, string> {
  try {
    return ok(parse(text, { maxAliasCount: 100, prettyErrors: false }) as unknown);
  } catch (e) {
    return fail(`${where}: ${(e as Error).message.split('\n')[0]}`);
  }
}

/** Reads a file's text; a failure is a message naming the file. */
function readText(path: string, what: string): Result<string, string> {
  try {
    return ok(readFileSync(path, 'utf8'));
  } catch (e) {
    return fail(`unable to read ${what} from "${path}" [${(e as Error).message}]`);
  }
}

/** The apiVersions an AdmissionConfiguration may have in this flavour. */
function acceptedVersions(names: Names): string[] {
  return [`${names.group('apiserver.config')}/v1`, `${names.group('apiserver')}/v1alpha1`];
}

/** Parses the text of an admission configuration file at `path` (relative plugin paths are resolved against it). */
export function parseAdmissionConfiguration(text: string, path: string, names: Names): Result<AdmissionConfiguration, string> {
  const parsed = parseConfigurationDocument(text, path);
  if (!parsed.ok) return parsed;
  const doc = fieldsOf(parsed.value);
  if (doc === undefined) return fail(`${path}: an admission configuration must be an object`);
  const apiVersion = doc['apiVersion'];
  const kind = doc['kind'];
  if (apiVersion === undefined && kind === undefined) {
    const legacy = legacyUnversioned.filter(([key]) => key in doc).map(([, plugin]) => plugin);
    if (legacy.length === 0) return fail(`${path}: Object 'Kind' is missing in admission configuration`);
    return ok({ path, configuration: (name) => (legacy.includes(name as (typeof legacy)[number]) ? doc : undefined) });
  }
  const versions = acceptedVersions(names);
  if (typeof apiVersion !== 'string' || !versions.includes(apiVersion)) {
    return fail(`${path}: apiVersion ${JSON.stringify(apiVersion ?? '')} is not one of ${versions.join(', ')}`);
  }
  if (kind !== 'AdmissionConfiguration') {
    return fail(`${path}: no kind ${JSON.stringify(kind ?? '')} is registered for version "${apiVersion}"`);
  }
  const plugins = doc['plugins'] ?? [];
  if (!Array.isArray(plugins)) return fail(`${path}: plugins must be a list`);
  const base = dirname(path);
  const byName = new Map<string, unknown>();
  for (const [i, item] of plugins.entries()) {
    const entry = fieldsOf(item);
    const where = `${path}: plugins[${i}]`;
    if (entry === undefined) return fail(`${where} must be an object`);
    const name = entry['name'];
    if (typeof name !== 'string' || name === '') return fail(`${where}.name is required`);
    // kube uses the first entry of a name.
    if (byName.has(name)) continue;
    const file = entry['path'];
    if (file !== undefined && file !== '') {
      if (typeof file !== 'string') return fail(`${where}.path must be a string`);
      const full = isAbsolute(file) ? file : join(base, file);
      const text = readText(full, `admission plugin "${name}" configuration`);
      if (!text.ok) return text;
      const config = parseConfigurationDocument(text.value, full);
      if (!config.ok) return config;
      byName.set(name, config.value);
    } else if (entry['configuration'] !== undefined && entry['configuration'] !== null) {
      if (fieldsOf(entry['configuration']) === undefined) return fail(`${where}.configuration must be an object`);
      byName.set(name, entry['configuration']);
    }
  }
  return ok({ path, configuration: (name) => byName.get(name) });
}

/** Reads and parses the admission configuration file at `path`. */
export function loadAdmissionConfiguration(path: string, names: Names): Result<AdmissionConfiguration, string> {
  const text = readText(path, 'admission control configuration');
  if (!text.ok) return text;
  return parseAdmissionConfiguration(text.value, path, names);
}

/** No file: no plugin has a configuration. */
export const emptyAdmissionConfiguration: AdmissionConfiguration = { path: '', configuration: () => undefined };
