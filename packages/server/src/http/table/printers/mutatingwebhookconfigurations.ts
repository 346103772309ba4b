/** Mutating and validating webhook configurations: Name, Webhooks (count), Age (printMutatingWebhook, printValidatingWebhook, 1.27). */
import { ageColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, list, since, str } from '../format.js';

/** The webhook configurations printer (both kinds print alike). */
export const webhookConfigurationPrinter: TablePrinter = {
  columns: [nameColumn, { name: 'Webhooks', type: 'integer', description: 'Webhooks indicates the number of webhooks registered in this configuration' }, ageColumn],
  cells: (w, ctx) => [str(w, 'metadata', 'name'), list(w, 'webhooks').length, since(get(w, 'metadata', 'creationTimestamp'), ctx.now)],
};
