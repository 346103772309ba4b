/**
 * What kube-apiserver 1.27's decoder refuses before any validation: a quantity, base64 value or timestamp that does
 * not parse fails the body as a JSON type error does, 400 BadRequest `<Kind> in version "v1" cannot be handled as a
 * <Kind>: <the Go decoder's error>` (k8s.io/apimachinery's resource.ErrFormatWrong, encoding/base64's
 * CorruptInputError, time.Parse's ParseError), on create and update alike.
 */
import { core, grouped, type Expectation, type ParityCase } from './corpus.js';

/** The 400 of a body the decoder cannot handle as `kind`. */
function undecodable(kind: string, error: string): Expectation {
  return { code: 400, reason: 'BadRequest', message: [`${kind} in version "v1" cannot be handled as a ${kind}: ${error}`] };
}

const quantityError = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/** The decoding corpus. */
export function decodingCases(): ParityCase[] {
  const container = (resources: Record<string, unknown>) => ({ spec: { containers: [{ name: 'a', image: 'nginx', resources }] } });
  return [
    {
      name: 'Decoding: a malformed quantity is a 400 on create and update', resource: core('pods', 'Pod'),
      steps: [
        { op: 'create', object: container({ limits: { cpu: 'lots' } }), expect: undecodable('Pod', quantityError) },
        { op: 'create', object: container({ limits: { cpu: '1' } }), expect: { code: 201 } },
        { op: 'update', merge: { metadata: { labels: { l: 'v' } }, spec: { overhead: { cpu: true } } }, expect: undecodable('Pod', quantityError) },
      ],
    },
    {
      name: 'Decoding: a quantity given as a JSON object fails the quantity format, not a type error', resource: core('resourcequotas', 'ResourceQuota'),
      steps: [{ op: 'create', object: { spec: { hard: { pods: {} } } }, expect: undecodable('ResourceQuota', quantityError) }],
    },
    {
      name: 'Decoding: malformed base64 in a Secret names the input byte', resource: core('secrets', 'Secret'),
      steps: [
        { op: 'create', object: { data: { key: 'abc!' } }, expect: undecodable('Secret', 'illegal base64 data at input byte 3') },
        { op: 'create', object: { data: { key: 'YWJj' } }, expect: { code: 201 } },
        { op: 'update', merge: { data: { key: 'YWJ' } }, expect: undecodable('Secret', 'illegal base64 data at input byte 0') },
      ],
    },
    {
      name: 'Decoding: a timestamp time.Parse refuses (RFC3339), the empty one included', resource: core('events', 'Event'),
      steps: [
        {
          op: 'create', object: { involvedObject: { kind: 'Pod', name: 'p', namespace: 'parity' }, firstTimestamp: '2024-01-02' },
          expect: undecodable('Event', 'parsing time "2024-01-02" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"'),
        },
        {
          op: 'create', object: { involvedObject: { kind: 'Pod', name: 'p', namespace: 'parity' }, lastTimestamp: '' },
          expect: undecodable('Event', 'parsing time "" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "2006"'),
        },
        {
          op: 'create', object: { involvedObject: { kind: 'Pod', name: 'p', namespace: 'parity' }, lastTimestamp: '2024-02-30T00:00:00Z' },
          expect: undecodable('Event', 'parsing time "2024-02-30T00:00:00Z": day out of range'),
        },
      ],
    },
    {
      name: 'Decoding: a MicroTime needs six fractional digits (RFC3339Micro)', resource: grouped('coordination', 'v1', 'leases', 'Lease'),
      steps: [
        {
          op: 'create', object: { spec: { holderIdentity: 'h', renewTime: '2024-01-02T03:04:05Z' } },
          expect: undecodable('Lease', 'parsing time "2024-01-02T03:04:05Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"'),
        },
        { op: 'create', object: { spec: { holderIdentity: 'h', renewTime: '2024-01-02T03:04:05.000000Z' } }, expect: { code: 201 } },
      ],
    },
  ];
}
