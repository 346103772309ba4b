/**
 * storage/v1 CSINode, CSIStorageCapacity and VolumeAttachment rules compared one by one with kube-apiserver 1.27's
 * storage validation and strategies: CSI node drivers, their IDs, counts and topology keys, and drivers an update
 * keeps; capacities' topology selectors and class names; attachments' sources, attachers, node names and status;
 * StorageClass provisioners, policies and allowed topologies, and the fields an update may not change.
 */
import { created, grouped, invalid, ok, rejectedCreate, type ParityCase } from './corpus.js';

/** The storage kinds' corpus. */
export function storageKindCases(): ParityCase[] {
  const nodes = grouped('storage', 'v1', 'csinodes', 'CSINode', false);
  const capacities = grouped('storage', 'v1', 'csistoragecapacities', 'CSIStorageCapacity');
  const attachments = grouped('storage', 'v1', 'volumeattachments', 'VolumeAttachment', false);
  const classes = grouped('storage', 'v1', 'storageclasses', 'StorageClass', false);
  const zones = (values: string[]) => ({ matchLabelExpressions: [{ key: 'topology.example.com/zone', values }] });
  const driver = { name: 'driver.example.com', nodeID: 'n1', topologyKeys: ['topology.example.com/zone'] };
  return [
    rejectedCreate('CSINode: driver names, node IDs up to 256 characters, counts and topology keys', nodes,
      {
        spec: {
          drivers: [
            { name: 'Driver_A', nodeID: 'x'.repeat(257), allocatable: { count: -1 } },
            { ...driver, topologyKeys: ['a', 'a', '-bad'] },
            { ...driver, nodeID: 'x'.repeat(256) },
          ],
        },
      },
      [
        'spec.drivers[0].name', 'spec.drivers[0].nodeID', 'spec.drivers[0].allocatable.count',
        'spec.drivers[1]', 'spec.drivers[1]', 'spec.drivers[2].name',
      ],
      ['must be 256 characters or less', 'Duplicate value: "a"', 'Duplicate value: "driver.example.com"']),
    {
      name: 'CSINode: an update adds and removes drivers but does not change one it keeps', resource: nodes,
      steps: [
        { op: 'create', object: { spec: { drivers: [driver] } }, expect: created({ 'spec.drivers[0].nodeID': 'n1' }) },
        { op: 'update', merge: { spec: { drivers: [driver, { name: 'other.example.com', nodeID: 'n1' }] } }, expect: ok({ 'spec.drivers[1].name': 'other.example.com' }) },
        { op: 'update', merge: { spec: { drivers: [{ ...driver, nodeID: 'n2' }] } }, expect: invalid(['CSINodeDriver'], ['field is immutable']) },
      ],
    },
    rejectedCreate('CSIStorageCapacity: the topology is a label selector, an empty class name fails the subdomain check', capacities,
      { nodeTopology: { matchExpressions: [{ key: 'zone', operator: 'Near' }] }, capacity: '-1Gi' },
      ['nodeTopology.matchExpressions[0].operator', 'storageClassName', 'capacity'], ['a lowercase RFC 1123 subdomain', 'must be greater than or equal to 0']),
    {
      name: 'CSIStorageCapacity: the topology may not change', resource: capacities,
      steps: [
        { op: 'create', object: { storageClassName: 'sc', nodeTopology: { matchLabels: { zone: 'a' } }, capacity: '1Gi' }, expect: created({ capacity: '1Gi' }) },
        { op: 'update', merge: { maximumVolumeSize: '1Gi' }, expect: ok({ maximumVolumeSize: '1Gi' }) },
        { op: 'update', merge: { nodeTopology: { matchLabels: { zone: 'b' } } }, expect: invalid(['nodeTopology'], ['field is immutable']) },
      ],
    },
    rejectedCreate('VolumeAttachment: one source, a CSI driver as attacher, a persistent volume name that is a subdomain', attachments,
      { spec: { attacher: 'Not_A_Driver', nodeName: 'n', source: { persistentVolumeName: 'PV_1' } } },
      ['spec.attacher', 'spec.source.persistentVolumeName']),
    rejectedCreate('VolumeAttachment: both sources are forbidden, none required', attachments,
      { spec: { attacher: 'driver.example.com', nodeName: 'n', source: {} } }, ['spec.source'], ['must specify exactly one of inlineVolumeSpec and persistentVolumeName']),
    {
      name: 'VolumeAttachment: /status checks attachment metadata size and error messages', resource: attachments,
      steps: [
        { op: 'create', object: { spec: { attacher: 'driver.example.com', nodeName: 'n', source: { persistentVolumeName: 'pv' } } }, expect: created({ status: { attached: false } }) },
        { op: 'update', merge: { status: { attached: true, attachError: { message: 'x'.repeat(1025) } } }, subresource: 'status', expect: invalid(['status.attachError.message']) },
        { op: 'update', merge: { status: { attached: true, attachmentMetadata: { k: 'v' } } }, subresource: 'status', expect: ok({ 'status.attached': true, 'status.attachmentMetadata.k': 'v' }) },
      ],
    },
    rejectedCreate('StorageClass: a qualified provisioner, known policies, allowed topologies unique and well formed', classes,
      {
        provisioner: 'example.com/a/b', reclaimPolicy: 'Recycle', volumeBindingMode: 'Later',
        allowedTopologies: [zones(['a']), zones(['a']), { matchLabelExpressions: [{ key: '-bad', values: [] }] }, {}],
      },
      [
        'provisioner', 'reclaimPolicy', 'volumeBindingMode', 'allowedTopologies[1].matchLabelExpressions',
        'allowedTopologies[2].matchLabelExpressions[0].values', 'allowedTopologies[2].matchLabelExpressions[0].key',
        'allowedTopologies[3].matchLabelExpressions',
      ],
      ['Unsupported value: "Recycle"', 'Duplicate value']),
    {
      name: 'StorageClass: an update checks only the immutable fields', resource: classes,
      steps: [
        { op: 'create', object: { provisioner: 'example.com/p', allowedTopologies: [zones(['a'])] }, expect: created({ reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' }) },
        { op: 'update', merge: { mountOptions: ['ro'], allowVolumeExpansion: true }, expect: ok({ allowVolumeExpansion: true }) },
        { op: 'update', merge: { provisioner: 'example.com/q', reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' }, expect: invalid(['provisioner', 'reclaimPolicy', 'volumeBindingMode']) },
      ],
    },
  ];
}
