/**
 * events.svc.io/v1 Event ↔ core v1 Event (kube's pkg/apis/events/v1 conversion): both versions are one resource
 * stored under the core events prefix in the core v1 form, as kube-apiserver stores them. The fields differ by name
 * only: `regarding`/`involvedObject`, `note`/`message`, `reportingController`/`reportingComponent`,
 * `deprecatedSource`/`source`, `deprecatedFirstTimestamp`/`firstTimestamp`, `deprecatedLastTimestamp`/
 * `lastTimestamp`, `deprecatedCount`/`count`; `eventTime`, `series`, `action`, `reason`, `related`, `type` and
 * `reportingInstance` are shared.
 */
import { apiVersionOf, type KubeObject, type Names } from '@svc-apiserver/api';
import { renameFields, reversed, type ResourceConversion } from './resource-conversion.js';

/** events.v1 name → core v1 name. */
export const eventFieldPairs: readonly (readonly [string, string])[] = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];
const toEvents = reversed(eventFieldPairs);

/** The conversion of events.svc.io/v1 Events. */
export function eventsV1Conversion(names: Names): ResourceConversion {
  const storageApiVersion = apiVersionOf('', 'v1');
  const servedApiVersion = apiVersionOf(names.group('events'), 'v1');
  return {
    storage: { groupKey: '', version: 'v1', resource: 'events', kind: 'Event' },
    storageApiVersion,
    toStorage: (object) => ({ ...renameFields(structuredClone(object), eventFieldPairs), apiVersion: storageApiVersion, kind: 'Event' }) as KubeObject,
    fromStorage: (object) => ({ ...renameFields(structuredClone(object), toEvents), apiVersion: servedApiVersion, kind: 'Event' }) as KubeObject,
  };
}
