/**
 * The resources served in a version other than their storage version, with their conversions, by typed
 * group-version-resource key (kube's storage versions of 1.27: autoscaling/v2, flowcontrol v1beta3, core v1
 * Events for events.svc.io/v1).
 */
import type { Names } from '@svc-apiserver/api';
import { entryFor, type ResourceKey, type VersionTable } from '../../schema/resource-keys.js';
import { eventsV1Conversion } from './events-v1.js';
import { flowcontrolV1beta2Conversion } from './flowcontrol-v1beta2.js';
import { hpaV1Conversion } from './hpa-v1.js';
import type { ResourceConversion } from './resource-conversion.js';

export type { ResourceConversion } from './resource-conversion.js';

const factories: VersionTable<(names: Names) => ResourceConversion> = {
  'autoscaling/v1/horizontalpodautoscalers': hpaV1Conversion,
  'flowcontrol.apiserver/v1beta2/flowschemas': (names) => flowcontrolV1beta2Conversion(names, 'flowschemas'),
  'flowcontrol.apiserver/v1beta2/prioritylevelconfigurations': (names) => flowcontrolV1beta2Conversion(names, 'prioritylevelconfigurations'),
  'events/v1/events': eventsV1Conversion,
};

/** The conversion of a served version to its storage version; undefined when it is stored as served. */
export function conversionFor(names: Names, groupKey: string, version: string, resource: string): ResourceConversion | undefined {
  return entryFor(factories, groupKey, version, resource)?.(names);
}

/** Every converted group-version-resource (tests walk them all). */
export const convertedResources = Object.keys(factories) as ResourceKey[];
