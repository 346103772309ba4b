/**
 * events/v1 Event rules compared one by one with kube-apiserver 1.27's ValidateEventCreate and ValidateEventUpdate
 * for events/v1: errors named as the internal (core) fields, the legacy rules, the strict create rules and an
 * update that may change only the series and metadata.
 */
import { created, grouped, invalid, ok, rejectedCreate, type ParityCase } from './corpus.js';

const event = {
  eventTime: '2024-01-01T00:00:00.000000Z', reportingController: 'example.com/c', reportingInstance: 'i-1',
  action: 'Tested', reason: 'Because', type: 'Normal', note: 'n', regarding: { kind: 'Pod', name: 'p', namespace: 'parity' },
};

/** The events/v1 rules' corpus. */
export function eventCases(): ParityCase[] {
  const events = grouped('events', 'v1', 'events', 'Event');
  return [
    rejectedCreate('Event v1: the note is validated as the message, the controller as a qualified name, deprecated fields unset', events,
      {
        ...event, note: 'x'.repeat(1025), reportingController: 'a/b/c', type: 'Info',
        deprecatedCount: 3, deprecatedSource: { component: 'kubelet' }, deprecatedFirstTimestamp: '2024-01-01T00:00:00Z',
        series: { count: 1 },
      },
      ['message', 'reportingController', 'type', 'count', 'source', 'firstTimestamp', 'series.count', 'series.lastObservedTime'],
      ['can have at most 1024 characters', 'has invalid value: Info', 'needs to be unset', 'should be at least 2']),
    rejectedCreate('Event v1: eventTime required; about a cluster-scoped object only in default or the system namespace', events,
      { ...event, eventTime: undefined, regarding: { kind: 'Node', name: 'n' } },
      ['eventTime', 'involvedObject.namespace'], ['does not match event.namespace']),
    {
      name: 'Event v1: an update may change the series, not the note, reason, type or action', resource: events,
      steps: [
        { op: 'create', object: event, expect: created({ note: 'n' }) },
        { op: 'update', merge: { series: { count: 2, lastObservedTime: '2024-01-01T00:01:00.000000Z' } }, expect: ok({ 'series.count': 2 }) },
        { op: 'update', merge: { series: { count: 1 } }, expect: invalid(['series.count']) },
        {
          op: 'update', merge: { note: 'changed', reason: 'Other', type: 'Warning', action: 'Again' },
          expect: invalid(['message', 'reason', 'reason', 'type', 'action'], ['field is immutable']),
        },
      ],
    },
  ];
}
