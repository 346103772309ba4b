/**
 * CronJobs: Name, Schedule, Suspend, Active, Last Schedule (`<none>` before the first run), Age; wide: Containers,
 * Images, Selector of the job template (printCronJob, 1.27).
 */
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { containerCells, get, list, since, str } from '../format.js';
import { boolPtr, formatLabelSelector } from './selectors.js';

const batch = 'io.k8s.api.batch.v1';

/** The cronjobs printer. */
export const cronJobPrinter: TablePrinter = {
  columns: [
    nameColumn,
    docColumn('Schedule', `${batch}.CronJobSpec`, 'schedule'),
    docColumn('Suspend', `${batch}.CronJobSpec`, 'suspend', { type: 'boolean' }),
    docColumn('Active', `${batch}.CronJobStatus`, 'active', { type: 'integer' }),
    docColumn('Last Schedule', `${batch}.CronJobStatus`, 'lastScheduleTime'),
    ageColumn,
    { name: 'Containers', priority: 1, description: 'Names of each container in the template.' },
    { name: 'Images', priority: 1, description: 'Images referenced by each container in the template.' },
    docColumn('Selector', `${batch}.JobSpec`, 'selector', { priority: 1 }),
  ],
  cells(cj, ctx) {
    const [names, images] = containerCells(list(cj, 'spec', 'jobTemplate', 'spec', 'template', 'spec', 'containers'));
    const last = get(cj, 'status', 'lastScheduleTime');
    return [
      str(cj, 'metadata', 'name'), str(cj, 'spec', 'schedule'), boolPtr(get(cj, 'spec', 'suspend')), list(cj, 'status', 'active').length,
      typeof last === 'string' && last !== '' ? since(last, ctx.now) : '<none>', since(get(cj, 'metadata', 'creationTimestamp'), ctx.now),
      names, images, formatLabelSelector(get(cj, 'spec', 'jobTemplate', 'spec', 'selector')),
    ];
  },
};
