/**
 * PriorityLevelConfigurations: Name, Type, NominalConcurrencyShares, Queues, HandSize, QueueLengthLimit (each
 * `<none>` when not limited or not queuing), Age (printPriorityLevelConfiguration, 1.27). v1beta2 objects carry the
 * shares as `assuredConcurrencyShares`, the same internal field.
 */
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, num, since, str } from '../format.js';

const fc = 'io.k8s.api.flowcontrol.v1beta3';

/** The prioritylevelconfigurations printer. */
export const priorityLevelConfigurationPrinter: TablePrinter = {
  columns: [
    nameColumn,
    docColumn('Type', `${fc}.PriorityLevelConfigurationSpec`, 'type'),
    docColumn('NominalConcurrencyShares', `${fc}.LimitedPriorityLevelConfiguration`, 'nominalConcurrencyShares'),
    docColumn('Queues', `${fc}.QueuingConfiguration`, 'queues'),
    docColumn('HandSize', `${fc}.QueuingConfiguration`, 'handSize'),
    docColumn('QueueLengthLimit', `${fc}.QueuingConfiguration`, 'queueLengthLimit'),
    ageColumn,
  ],
  cells(pl, ctx) {
    const limited = get(pl, 'spec', 'limited');
    const limitedSet = limited !== undefined && limited !== null;
    const q = get(limited, 'limitResponse', 'queuing');
    const queuing = limitedSet && q !== undefined && q !== null ? q : undefined;
    const shares = get(limited, 'nominalConcurrencyShares') ?? get(limited, 'assuredConcurrencyShares');
    return [
      str(pl, 'metadata', 'name'), str(pl, 'spec', 'type'),
      // A limited level always has shares (defaulted); 0 when absent, as the internal int32 would be.
      limitedSet ? (typeof shares === 'number' ? shares : 0) : '<none>',
      queuing ? num(queuing, 'queues') : '<none>', queuing ? num(queuing, 'handSize') : '<none>',
      queuing ? num(queuing, 'queueLengthLimit') : '<none>', since(get(pl, 'metadata', 'creationTimestamp'), ctx.now),
    ];
  },
};
