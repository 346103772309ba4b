/**
 * RoleBindings and ClusterRoleBindings: Name, Role (`Kind/name`), Age; wide: Users, Groups, ServiceAccounts
 * (`namespace/name`), each joined by `, ` (printRoleBinding, printClusterRoleBinding, 1.27). Roles and ClusterRoles
 * have no printer upstream: they get the default Name / Created At table.
 */
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, list, since, str } from '../format.js';

/** SubjectsStrings: users, groups and service accounts of a binding. */
function subjects(binding: Record<string, unknown>): [string, string, string] {
  const users: string[] = [];
  const groups: string[] = [];
  const sas: string[] = [];
  for (const s of list(binding, 'subjects')) {
    switch (str(s, 'kind')) {
      case 'ServiceAccount':
        sas.push(`${str(s, 'namespace')}/${str(s, 'name')}`);
        break;
      case 'User':
        users.push(str(s, 'name'));
        break;
      case 'Group':
        groups.push(str(s, 'name'));
        break;
    }
  }
  return [users.join(', '), groups.join(', '), sas.join(', ')];
}

/** The printer of a binding kind; `noun` words the subject column descriptions. */
export function bindingPrinter(kind: 'RoleBinding' | 'ClusterRoleBinding', noun: string): TablePrinter {
  return {
    columns: [
      nameColumn,
      docColumn('Role', `io.k8s.api.rbac.v1.${kind}`, 'roleRef'),
      ageColumn,
      { name: 'Users', priority: 1, description: `Users in the ${noun}` },
      { name: 'Groups', priority: 1, description: `Groups in the ${noun}` },
      { name: 'ServiceAccounts', priority: 1, description: `ServiceAccounts in the ${noun}` },
    ],
    cells: (b, ctx) => [
      str(b, 'metadata', 'name'), `${str(b, 'roleRef', 'kind')}/${str(b, 'roleRef', 'name')}`,
      since(get(b, 'metadata', 'creationTimestamp'), ctx.now), ...subjects(b),
    ],
  };
}

/** The rolebindings printer. */
export const roleBindingPrinter: TablePrinter = bindingPrinter('RoleBinding', 'roleBinding');
