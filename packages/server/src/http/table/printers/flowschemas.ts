/**
 * FlowSchemas: Name, PriorityLevel, MatchingPrecedence, DistinguisherMethod (`<none>`), Age, MissingPL (the status
 * of the Dangling condition, `?` without it) (printFlowSchema, 1.27).
 */
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, list, num, since, str } from '../format.js';

const fc = 'io.k8s.api.flowcontrol.v1beta3';

/** The flowschemas printer. */
export const flowSchemaPrinter: TablePrinter = {
  columns: [
    nameColumn,
    docColumn('PriorityLevel', `${fc}.PriorityLevelConfigurationReference`, 'name'),
    docColumn('MatchingPrecedence', `${fc}.FlowSchemaSpec`, 'matchingPrecedence'),
    docColumn('DistinguisherMethod', `${fc}.FlowSchemaSpec`, 'distinguisherMethod'),
    ageColumn,
    { name: 'MissingPL', description: 'references a broken or non-existent PriorityLevelConfiguration' },
  ],
  cells(fs, ctx) {
    const method = get(fs, 'spec', 'distinguisherMethod');
    const dangling = list(fs, 'status', 'conditions').find((c) => str(c, 'type') === 'Dangling');
    return [
      str(fs, 'metadata', 'name'), str(fs, 'spec', 'priorityLevelConfiguration', 'name'), num(fs, 'spec', 'matchingPrecedence'),
      method !== undefined && method !== null ? str(method, 'type') : '<none>', since(get(fs, 'metadata', 'creationTimestamp'), ctx.now),
      dangling !== undefined ? str(dangling, 'status') : '?',
    ];
  },
};
