/** ValidatingWebhookConfigurations: the columns of mutating webhook configurations (printValidatingWebhook, 1.27). */
import type { TablePrinter } from '../printer.js';
import { webhookConfigurationPrinter } from './mutatingwebhookconfigurations.js';

/** The validatingwebhookconfigurations printer. */
export const validatingWebhookConfigurationPrinter: TablePrinter = webhookConfigurationPrinter;
