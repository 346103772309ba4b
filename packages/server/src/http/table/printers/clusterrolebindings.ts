/** ClusterRoleBindings: the binding columns of rolebindings (printClusterRoleBinding, 1.27). */
import type { TablePrinter } from '../printer.js';
import { bindingPrinter } from './rolebindings.js';

/** The clusterrolebindings printer. */
export const clusterRoleBindingPrinter: TablePrinter = bindingPrinter('ClusterRoleBinding', 'clusterRoleBinding');
