/**
 * `config view|use-context|get-contexts|current-context|set-context`: reading and editing the kubeconfig file
 * (`--kubeconfig`, else the first `$KUBECONFIG` entry, else `~/.kube/config`) as kubectl does; `view` hides
 * credentials (`DATA+OMITTED`, `REDACTED`) unless `--raw`, and `--minify` keeps only the current context's entries.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { kubeconfigPath } from '@svc-apiserver/client';
import { parseDocument, stringify } from 'yaml';
import { table } from '../output.js';
import { error, type CliIo } from '../session.js';
import type { Flags } from '../flags.js';

type Entry = { name?: string; [k: string]: unknown };
type Config = { contexts?: Entry[]; clusters?: Entry[]; users?: Entry[]; 'current-context'?: string; [k: string]: unknown };

function redact(user: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...user };
  for (const k of ['client-certificate-data', 'client-key-data']) if (k in out) out[k] = 'DATA+OMITTED';
  for (const k of ['token', 'password']) if (k in out) out[k] = 'REDACTED';
  return out;
}

/** Runs `config SUBCOMMAND`. */
export function cmdConfig(io: CliIo, flags: Flags, args: string[]): number {
  const [sub, ...rest] = args;
  const path = kubeconfigPath(flags.kubeconfig, io.env);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    if (sub === 'view') text = 'apiVersion: v1\nkind: Config\nclusters: null\ncontexts: null\ncurrent-context: ""\nusers: null\npreferences: {}\n';
    else return error(io, `open ${path}: no such file or directory`);
  }
  const doc = parseDocument(text);
  const config = (doc.toJS() ?? {}) as Config;
  const current = flags.context ?? config['current-context'] ?? '';
  switch (sub) {
    case 'view': {
      let view: Config = { ...config };
      if (flags.minify) {
        const ctx = (config.contexts ?? []).find((c) => c.name === current);
        if (!ctx) return error(io, `current-context must exist in order to minify`);
        const c = ctx.context as { cluster?: string; user?: string } | undefined;
        view = { ...view, 'current-context': current, contexts: [ctx], clusters: (config.clusters ?? []).filter((x) => x.name === c?.cluster), users: (config.users ?? []).filter((x) => x.name === c?.user) };
      }
      if (!flags.raw) {
        view.users = (view.users ?? []).map((u) => ({ ...u, user: redact((u.user ?? {}) as Record<string, unknown>) }));
        view.clusters = (view.clusters ?? []).map((c) => {
          const cluster = { ...(c.cluster as Record<string, unknown>) };
          if ('certificate-authority-data' in cluster) cluster['certificate-authority-data'] = 'DATA+OMITTED';
          return { ...c, cluster };
        });
      }
      io.stdout(flags.output === 'json' ? JSON.stringify(view, null, 4) + '\n' : stringify(view, { lineWidth: 0 }));
      return 0;
    }
    case 'current-context':
      if (!current) return error(io, 'current-context is not set');
      io.stdout(`${current}\n`);
      return 0;
    case 'get-contexts': {
      const all = [...(config.contexts ?? [])].sort((a, b) => (a.name ?? '').localeCompare(b.name ?? ''));
      const wanted = rest.length > 0 ? all.filter((c) => rest.includes(c.name ?? '')) : all;
      if (rest.length > 0 && wanted.length === 0) return error(io, `context ${rest[0]} not found`);
      if (flags.output === 'name') {
        io.stdout(wanted.map((c) => `${c.name ?? ''}\n`).join(''));
        return 0;
      }
      const rows = wanted.map((c) => {
        const x = (c.context ?? {}) as { cluster?: string; user?: string; namespace?: string };
        return [c.name === current ? '*' : '', c.name ?? '', x.cluster ?? '', x.user ?? '', x.namespace ?? ''];
      });
      io.stdout(table([['CURRENT', 'NAME', 'CLUSTER', 'AUTHINFO', 'NAMESPACE'], ...rows]));
      return 0;
    }
    case 'use-context': {
      const name = rest[0];
      if (!name) return error(io, 'Unexpected args: []');
      if (!(config.contexts ?? []).some((c) => c.name === name)) return error(io, `no context exists with the name: "${name}"`);
      doc.set('current-context', name);
      writeFileSync(path, doc.toString());
      io.stdout(`Switched to context "${name}".\n`);
      return 0;
    }
    case 'set-context': {
      const name = flags.current ? current : rest[0];
      if (!name) return error(io, 'you must specify a non-empty context name or --current');
      const contexts = config.contexts ?? [];
      const existing = contexts.find((c) => c.name === name);
      const ctx = { ...((existing?.context ?? {}) as Record<string, unknown>) };
      if (flags.namespace !== undefined) ctx.namespace = flags.namespace;
      if (flags.cluster !== undefined) ctx.cluster = flags.cluster;
      if (flags.user !== undefined) ctx.user = flags.user;
      const next = existing ? contexts.map((c) => (c.name === name ? { ...c, context: ctx } : c)) : [...contexts, { name, context: ctx }];
      doc.set('contexts', doc.createNode(next));
      writeFileSync(path, doc.toString());
      io.stdout(`Context "${name}" ${existing ? 'modified' : 'created'}.\n`);
      return 0;
    }
    default:
      return error(io, `unknown command "${sub ?? ''}" for "svcctl config"`);
  }
}
