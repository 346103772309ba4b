/**
 * kubectl's layouts for everyday kinds, each as its describer in kubectl 1.27 prints them: ConfigMap, Secret (sizes,
 * never values), Namespace (with its quotas and limit ranges), ServiceAccount (with its token secrets), Service
 * (with its endpoints), Role and ClusterRole (rules broken down and compacted as kubectl does), RoleBinding and
 * ClusterRoleBinding. Kinds without one here get the generic layout.
 */
import type { KubeObject } from '@svc-apiserver/api';
import { writeAnnotations, writeEvents, writeLabels, type DescribeWriter } from './describe-writer.js';

/** What a describer may read besides the object. */
export interface DescribeContext {
  readonly obj: KubeObject;
  /** The Events about the object. */
  events(): Promise<KubeObject[]>;
  /** The objects of a core/v1 resource in the object's namespace (empty when they cannot be read). */
  listCore(resource: string): Promise<KubeObject[]>;
  /** The last-applied annotation of the server's flavour, which describe leaves out. */
  readonly lastApplied: string;
}

/** A kind's layout. */
export type Describer = (w: DescribeWriter, ctx: DescribeContext) => Promise<void>;

type Any = Record<string, any>;
const meta = (o: KubeObject): Any => o.metadata ?? {};

function header(w: DescribeWriter, ctx: DescribeContext, namespaced: boolean): void {
  const m = meta(ctx.obj);
  w.write(0, `Name:\t${m.name ?? ''}\n`);
  if (namespaced) w.write(0, `Namespace:\t${m.namespace ?? ''}\n`);
  writeLabels(w, 'Labels', m.labels);
  writeAnnotations(w, 'Annotations', m.annotations, ctx.lastApplied);
}

const configMap: Describer = async (w, ctx) => {
  const o = ctx.obj as Any;
  header(w, ctx, true);
  w.write(0, '\nData\n====\n');
  for (const k of Object.keys(o.data ?? {}).sort()) w.write(0, `${k}:\n----\n${o.data[k]}\n`);
  w.write(0, '\nBinaryData\n====\n');
  for (const k of Object.keys(o.binaryData ?? {}).sort()) w.write(0, `${k}: ${Buffer.from(o.binaryData[k], 'base64').length} bytes\n`);
  w.write(0, '\n');
  writeEvents(w, await ctx.events());
};

const secret: Describer = async (w, ctx) => {
  const o = ctx.obj as Any;
  header(w, ctx, true);
  w.write(0, `\nType:\t${o.type ?? ''}\n`);
  w.write(0, '\nData\n====\n');
  const tokenType = o.type?.endsWith('/service-account-token') === true;
  for (const k of Object.keys(o.data ?? {}).sort()) {
    const bytes = Buffer.from(o.data[k] ?? '', 'base64');
    w.write(0, k === 'token' && tokenType ? `${k}:\t${bytes.toString('utf8')}\n` : `${k}:\t${bytes.length} bytes\n`);
  }
};

const namespace: Describer = async (w, ctx) => {
  const o = ctx.obj as Any;
  header(w, ctx, false);
  w.write(0, `Status:\t${o.status?.phase ?? ''}\n`);
  const conditions: Any[] = o.status?.conditions ?? [];
  if (conditions.length > 0) {
    w.write(0, 'Conditions:\n');
    w.write(1, 'Type\tStatus\tLastTransitionTime\tReason\tMessage\n');
    w.write(1, '----\t------\t------------------\t------\t-------\n');
    for (const c of conditions) w.write(1, `${c.type}\t${c.status}\t${rfc1123z(c.lastTransitionTime)}\t${c.reason ?? ''}\t${c.message ?? ''}\n`);
  }
  const quotas = (await ctx.listCore('resourcequotas')).sort((a, b) => String(meta(a).name).localeCompare(String(meta(b).name)));
  w.write(0, '\n');
  if (quotas.length === 0) w.write(0, 'No resource quota.\n');
  else {
    w.write(0, 'Resource Quotas\n');
    for (const q of quotas as Any[]) {
      w.write(1, `Name:\t${meta(q as KubeObject).name}\n`);
      w.write(1, 'Resource\tUsed\tHard\n');
      w.write(1, '--------\t---\t---\n');
      for (const r of Object.keys(q.status?.hard ?? {}).sort()) w.write(1, `${r}\t${q.status?.used?.[r] ?? '0'}\t${q.status.hard[r]}\n`);
    }
  }
  const limits = await ctx.listCore('limitranges');
  w.write(0, '\n');
  if (limits.length === 0) w.write(0, 'No LimitRange resource.\n');
  else {
    w.write(0, 'Resource Limits\n Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n');
    w.write(0, ' ----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n');
    for (const lr of limits as Any[]) {
      for (const item of lr.spec?.limits ?? []) {
        const names = new Set<string>([...Object.keys(item.min ?? {}), ...Object.keys(item.max ?? {}), ...Object.keys(item.defaultRequest ?? {}), ...Object.keys(item.default ?? {}), ...Object.keys(item.maxLimitRequestRatio ?? {})]);
        for (const r of [...names].sort()) {
          const v = (m: Any | undefined): string => m?.[r] ?? '-';
          w.write(0, ` ${item.type}\t${r}\t${v(item.min)}\t${v(item.max)}\t${v(item.defaultRequest)}\t${v(item.default)}\t${v(item.maxLimitRequestRatio)}\n`);
        }
      }
    }
  }
};

const serviceAccount: Describer = async (w, ctx) => {
  const o = ctx.obj as Any;
  header(w, ctx, true);
  const secrets = await ctx.listCore('secrets');
  const existing = new Set(secrets.map((s) => meta(s).name));
  const tokens = (secrets as Any[]).filter((s) => String(s.type ?? '').endsWith('/service-account-token')
    && Object.entries(meta(s as KubeObject).annotations ?? {}).some(([k, v]) => k.endsWith('/service-account.name') && v === meta(o).name)
    && Object.entries(meta(s as KubeObject).annotations ?? {}).some(([k, v]) => k.endsWith('/service-account.uid') && v === meta(o).uid));
  const rows: Array<[string, string[]]> = [
    ['Image pull secrets:', (o.imagePullSecrets ?? []).map((s: Any) => s.name)],
    ['Mountable secrets: ', (o.secrets ?? []).map((s: Any) => s.name)],
    ['Tokens:            ', tokens.map((s) => meta(s as KubeObject).name)],
  ];
  for (const [title, names] of rows) {
    if (names.length === 0) w.write(0, `${title}\t<none>\n`);
    names.forEach((n, i) => w.write(0, `${i === 0 ? title : '                   '}\t${n}${existing.has(n) || secrets.length === 0 ? '' : ' (not found)'}\n`));
  }
  writeEvents(w, await ctx.events());
};

const service: Describer = async (w, ctx) => {
  const o = ctx.obj as Any;
  const spec: Any = o.spec ?? {};
  header(w, ctx, true);
  const selector = Object.entries(spec.selector ?? {}).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}=${v}`).join(',');
  w.write(0, `Selector:\t${selector || '<none>'}\n`);
  w.write(0, `Type:\t${spec.type ?? ''}\n`);
  if (spec.ipFamilyPolicy) w.write(0, `IP Family Policy:\t${spec.ipFamilyPolicy}\n`);
  w.write(0, `IP Families:\t${(spec.ipFamilies ?? []).join(',') || '<none>'}\n`);
  w.write(0, `IP:\t${spec.clusterIP ?? ''}\n`);
  w.write(0, `IPs:\t${(spec.clusterIPs ?? []).join(',') || '<none>'}\n`);
  if ((spec.externalIPs ?? []).length > 0) w.write(0, `External IPs:\t${spec.externalIPs.join(',')}\n`);
  if (spec.loadBalancerIP) w.write(0, `IP:\t${spec.loadBalancerIP}\n`);
  if (spec.externalName) w.write(0, `External Name:\t${spec.externalName}\n`);
  const endpoints = (await ctx.listCore('endpoints')).find((e) => meta(e).name === meta(o).name) as Any | undefined;
  for (const p of spec.ports ?? []) {
    const name = p.name || '<unset>';
    w.write(0, `Port:\t${name}\t${p.port}/${p.protocol}\n`);
    w.write(0, `TargetPort:\t${p.targetPort}/${p.protocol}\n`);
    if (p.nodePort) w.write(0, `NodePort:\t${name}\t${p.nodePort}/${p.protocol}\n`);
    w.write(0, `Endpoints:\t${formatEndpoints(endpoints, p.name ?? '')}\n`);
  }
  w.write(0, `Session Affinity:\t${spec.sessionAffinity ?? ''}\n`);
  if (spec.externalTrafficPolicy) w.write(0, `External Traffic Policy:\t${spec.externalTrafficPolicy}\n`);
  if (spec.healthCheckNodePort) w.write(0, `HealthCheck NodePort:\t${spec.healthCheckNodePort}\n`);
  if ((spec.loadBalancerSourceRanges ?? []).length > 0) w.write(0, `LoadBalancer Source Ranges:\t${spec.loadBalancerSourceRanges.join(',')}\n`);
  writeEvents(w, await ctx.events());
};

/** kubectl's formatEndpoints: up to three `ip:port`, then `+ N more...`; `<none>` when there is none. */
function formatEndpoints(endpoints: Any | undefined, portName: string): string {
  const list: string[] = [];
  let more = 0;
  for (const subset of endpoints?.subsets ?? []) {
    for (const port of subset.ports ?? []) {
      if ((port.name ?? '') !== portName) continue;
      for (const addr of subset.addresses ?? []) {
        if (list.length < 3) list.push(`${addr.ip}:${port.port}`);
        else more++;
      }
    }
  }
  if (list.length === 0) return '<none>';
  return more > 0 ? `${list.join(',')} + ${more} more...` : list.join(',');
}

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

const role: Describer = async (w, ctx) => {
  header(w, ctx, false);
  w.write(0, 'PolicyRule:\n');
  w.write(1, 'Resources\tNon-Resource URLs\tResource Names\tVerbs\n');
  w.write(1, '---------\t-----------------\t--------------\t-----\n');
  for (const r of compactRules((ctx.obj as Any).rules ?? [])) {
    w.write(1, `${resourceGroup(r.resources, r.apiGroups)}\t[${r.nonResourceURLs.join(' ')}]\t[${r.resourceNames.join(' ')}]\t[${r.verbs.join(' ')}]\n`);
  }
};

const binding: Describer = async (w, ctx) => {
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

/** Go's time.RFC1123Z of a timestamp (`Mon, 02 Jan 2006 15:04:05 -0700`), in UTC. */
function rfc1123z(ts: string | undefined): string {
  if (!ts) return '';
  const d = new Date(ts);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()]}, ${p(d.getUTCDate())} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

/** The layouts by neutral group key and kind. */
export const kindDescribers: Readonly<Record<string, Describer>> = {
  '/ConfigMap': configMap,
  '/Secret': secret,
  '/Namespace': namespace,
  '/ServiceAccount': serviceAccount,
  '/Service': service,
  'rbac.authorization/Role': role,
  'rbac.authorization/ClusterRole': role,
  'rbac.authorization/RoleBinding': binding,
  'rbac.authorization/ClusterRoleBinding': binding,
};
