/**
 * kubectl's layouts for RBAC: Role and ClusterRole (rules broken down and compacted as kubectl does), RoleBinding
 * and ClusterRoleBinding.
 */
import { header, type Any, type Describer } from './describe-context.js';

/** An RBAC rule as kubectl prints and sorts them. */
interface Rule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
  nonResourceURLs: string[];
}

/** kubectl's BreakdownRule then CompactRules, sorted by the rule's Go string (verbs first). */
export function compactRules(rules: readonly Any[]): Rule[] {
  const simple = new Map<string, Rule>();
  const out: Rule[] = [];
  for (const r of rules) {
    for (const g of r.apiGroups ?? []) {
      for (const res of r.resources ?? []) {
        const names: Array<string | undefined> = (r.resourceNames ?? []).length > 0 ? r.resourceNames : [undefined];
        for (const n of names) {
          const key = JSON.stringify([g, res, n !== undefined, n ?? '']);
          let rule = simple.get(key);
          if (rule === undefined) simple.set(key, (rule = { verbs: [], apiGroups: [g], resources: [res], resourceNames: n === undefined ? [] : [n], nonResourceURLs: [] }));
          for (const v of r.verbs ?? []) if (!rule.verbs.includes(v)) rule.verbs.push(v);
        }
      }
    }
    for (const url of r.nonResourceURLs ?? []) for (const v of r.verbs ?? []) out.push({ verbs: [v], apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: [url] });
  }
  const all = [...out, ...simple.values()];
  const goString = (r: Rule): string => `&PolicyRule{Verbs:[${r.verbs.join(' ')}],APIGroups:[${r.apiGroups.join(' ')}],Resources:[${r.resources.join(' ')}],ResourceNames:[${r.resourceNames.join(' ')}],NonResourceURLs:[${r.nonResourceURLs.join(' ')}],}`;
  return all.map((r) => ({ r, s: goString(r) })).sort((a, b) => (a.s < b.s ? -1 : a.s > b.s ? 1 : 0)).map(({ r }) => r);
}

/** kubectl's CombineResourceGroup. */
function resourceGroup(resources: readonly string[], groups: readonly string[]): string {
  const [first] = resources;
  if (first === undefined) return '';
  const [res, sub] = first.split(/\/(.*)/s);
  return `${res}${groups[0] ? `.${groups[0]}` : ''}${sub === undefined ? '' : `/${sub}`}`;
}

/** kubectl's Role and ClusterRole layout. */
export const roleDescriber: Describer = async (w, ctx) => {
  header(w, ctx, false);
  w.write(0, 'PolicyRule:\n');
  w.write(1, 'Resources\tNon-Resource URLs\tResource Names\tVerbs\n');
  w.write(1, '---------\t-----------------\t--------------\t-----\n');
  for (const r of compactRules((ctx.obj as Any).rules ?? [])) {
    w.write(1, `${resourceGroup(r.resources, r.apiGroups)}\t[${r.nonResourceURLs.join(' ')}]\t[${r.resourceNames.join(' ')}]\t[${r.verbs.join(' ')}]\n`);
  }
};

/** kubectl's RoleBinding and ClusterRoleBinding layout. */
export const bindingDescriber: Describer = async (w, ctx) => {
  const o = ctx.obj as Any;
  header(w, ctx, false);
  w.write(0, 'Role:\n');
  w.write(1, `Kind:\t${o.roleRef?.kind ?? ''}\n`);
  w.write(1, `Name:\t${o.roleRef?.name ?? ''}\n`);
  w.write(0, 'Subjects:\n');
  w.write(1, 'Kind\tName\tNamespace\n');
  w.write(1, '----\t----\t---------\n');
  for (const s of o.subjects ?? []) w.write(1, `${s.kind ?? ''}\t${s.name ?? ''}\t${s.namespace ?? ''}\n`);
};

