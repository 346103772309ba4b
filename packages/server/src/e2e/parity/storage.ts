/**
 * storage.k8s.io rules compared with kube-apiserver 1.27's storage validation and strategies where this corpus
 * adds to the cluster file: CSIDrivers' token requests and the `seLinuxMount` field of SELinuxMountReadWriteOncePod
 * (off by default in 1.27, so dropped).
 */
import { grouped, rejectedCreate, type ParityCase } from './corpus.js';

/** The storage rules' corpus. */
export function storageCases(): ParityCase[] {
  const drivers = grouped('storage', 'v1', 'csidrivers', 'CSIDriver', false);
  return [
    {
      name: 'CSIDriver: seLinuxMount is dropped while its gate is off', resource: drivers,
      steps: [{ op: 'create', object: { spec: { seLinuxMount: true } }, expect: { code: 201, values: { 'spec.attachRequired': true }, absent: ['spec.seLinuxMount'] } }],
    },
    rejectedCreate('CSIDriver: token requests with one audience twice and too short an expiration', drivers,
      { spec: { tokenRequests: [{ audience: 'a', expirationSeconds: 60 }, { audience: 'a' }] } },
      ['spec.tokenRequests[0].expirationSeconds', 'spec.tokenRequests[1].audience'], ['may not specify a duration less than 10 minutes']),
  ];
}
