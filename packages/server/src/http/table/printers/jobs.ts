/**
 * Jobs: Name, Completions (`succeeded/completions`, `succeeded/1 of parallelism` without completions), Duration
 * (start to completion, or to now while running), Age; wide: Containers, Images, Selector (printJob, 1.27).
 */
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { containerCells, get, humanDuration, list, num, since, str } from '../format.js';
import { formatLabelSelector } from './selectors.js';

function completions(job: Record<string, unknown>): string {
  const succeeded = num(job, 'status', 'succeeded');
  if (typeof get(job, 'spec', 'completions') === 'number') return `${succeeded}/${num(job, 'spec', 'completions')}`;
  const parallelism = num(job, 'spec', 'parallelism');
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function duration(job: Record<string, unknown>, now: number): string {
  const start = Date.parse(str(job, 'status', 'startTime'));
  if (!Number.isFinite(start)) return '';
  const end = Date.parse(str(job, 'status', 'completionTime'));
  return humanDuration((Number.isFinite(end) ? end : now) - start);
}

/** The jobs printer. */
export const jobPrinter: TablePrinter = {
  columns: [
    nameColumn,
    docColumn('Completions', 'io.k8s.api.batch.v1.JobStatus', 'succeeded'),
    { name: 'Duration', description: 'Time required to complete the job.' },
    ageColumn,
    { name: 'Containers', priority: 1, description: 'Names of each container in the template.' },
    { name: 'Images', priority: 1, description: 'Images referenced by each container in the template.' },
    docColumn('Selector', 'io.k8s.api.batch.v1.JobSpec', 'selector', { priority: 1 }),
  ],
  cells(job, ctx) {
    const [names, images] = containerCells(list(job, 'spec', 'template', 'spec', 'containers'));
    return [
      str(job, 'metadata', 'name'), completions(job), duration(job, ctx.now), since(get(job, 'metadata', 'creationTimestamp'), ctx.now),
      names, images, formatLabelSelector(get(job, 'spec', 'selector')),
    ];
  },
};
