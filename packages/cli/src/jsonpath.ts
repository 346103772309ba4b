/**
 * kubectl's JSONPath templates (`-o jsonpath=`, `custom-columns=`, `wait --for=jsonpath=`): text with `{...}`
 * actions holding paths (`.metadata.name`, `['a.b']`, `[0]`, `[*]`, `[1:3]`, `..name`, filters `[?(@.type=="Ready")]`),
 * quoted literals, and `range ... end`. Hand-written: kubectl's template language is not JSONPath proper (its
 * ranges and literals have no npm implementation), and what it prints (space-joined results, maps as JSON) is its own.
 */
import { fail, ok, type Result } from '@svc-apiserver/api';

type Segment =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'recursive'; readonly name: string }
  | { readonly kind: 'index'; readonly start?: number; readonly end?: number; readonly single: boolean }
  | { readonly kind: 'wildcard' }
  | { readonly kind: 'filter'; readonly path: Segment[]; readonly op?: string; readonly value?: unknown };

type Node =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'path'; readonly path: Segment[] }
  | { readonly kind: 'range'; readonly path: Segment[]; readonly body: Node[] };

/** A parsed template. */
export interface Template {
  readonly nodes: readonly Node[];
}

function parsePath(src: string): Result<Segment[], string> {
  const out: Segment[] = [];
  let i = 0;
  const s = src.trim().replace(/^\$/, '');
  while (i < s.length) {
    if (s.startsWith('..', i)) {
      const m = /^[A-Za-z0-9_-]+/.exec(s.slice(i + 2));
      if (!m) return fail(`unrecognized identifier after ..: ${s}`);
      out.push({ kind: 'recursive', name: m[0] });
      i += 2 + m[0].length;
    } else if (s[i] === '.') {
      const m = /^[A-Za-z0-9_\\/-]*/.exec(s.slice(i + 1));
      const name = (m?.[0] ?? '').replace(/\\\./g, '.');
      if (name === '*') out.push({ kind: 'wildcard' });
      else if (name !== '') out.push({ kind: 'field', name });
      i += 1 + (m?.[0].length ?? 0);
      if (s[i] === '*') {
        out.push({ kind: 'wildcard' });
        i++;
      }
    } else if (s[i] === '[') {
      const close = matchingBracket(s, i);
      if (close < 0) return fail(`unclosed bracket in ${s}`);
      const inner = s.slice(i + 1, close).trim();
      i = close + 1;
      if (inner === '*') out.push({ kind: 'wildcard' });
      else if (/^'.*'$|^".*"$/.test(inner)) out.push({ kind: 'field', name: inner.slice(1, -1) });
      else if (/^-?\d+$/.test(inner)) out.push({ kind: 'index', start: Number(inner), single: true });
      else if (/^-?\d*:-?\d*$/.test(inner)) {
        const [a, b] = inner.split(':');
        out.push({ kind: 'index', ...(a ? { start: Number(a) } : {}), ...(b ? { end: Number(b) } : {}), single: false });
      } else if (inner.startsWith('?(') && inner.endsWith(')')) {
        const m = /^@((?:\.[A-Za-z0-9_-]+|\[[^\]]*\])*)\s*(?:(==|!=|<=|>=|<|>)\s*(.+))?$/.exec(inner.slice(2, -1).trim());
        if (!m) return fail(`unsupported filter: ${inner}`);
        const path = parsePath(m[1] ?? '');
        if (!path.ok) return path;
        const raw = m[3]?.trim();
        const value = raw === undefined ? undefined : /^'.*'$|^".*"$/.test(raw) ? raw.slice(1, -1) : raw === 'true' ? true : raw === 'false' ? false : Number(raw);
        out.push({ kind: 'filter', path: path.value, ...(m[2] === undefined ? {} : { op: m[2], value }) });
      } else return fail(`unsupported subscript: [${inner}]`);
    } else {
      return fail(`unrecognized character in action: ${s.slice(i)}`);
    }
  }
  return ok(out);
}

function matchingBracket(s: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return i;
  }
  return -1;
}

/** Parses a template (`{.metadata.name}{"\n"}`); a bare path without braces is taken whole, as custom-columns does. */
export function parseTemplate(text: string): Result<Template, string> {
  const stack: Node[][] = [[]];
  const ranges: Segment[][] = [];
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('{', i);
    const end = open < 0 ? text.length : open;
    if (end > i) stack[stack.length - 1]!.push({ kind: 'text', text: text.slice(i, end) });
    if (open < 0) break;
    const close = text.indexOf('}', open);
    if (close < 0) return fail(`unclosed action in ${text}`);
    const action = text.slice(open + 1, close).trim();
    i = close + 1;
    if (/^".*"$|^'.*'$/s.test(action)) {
      const literal = action.slice(1, -1).replace(/\\n/g, '\n').replace(/\\t/g, '\t').replace(/\\(.)/g, '$1');
      stack[stack.length - 1]!.push({ kind: 'text', text: literal });
    } else if (action.startsWith('range ')) {
      const p = parsePath(action.slice(6));
      if (!p.ok) return p;
      ranges.push(p.value);
      stack.push([]);
    } else if (action === 'end') {
      const body = stack.pop();
      const path = ranges.pop();
      if (!body || !path || stack.length === 0) return fail('not in range, nothing to end');
      stack[stack.length - 1]!.push({ kind: 'range', path, body });
    } else {
      const p = parsePath(action);
      if (!p.ok) return p;
      stack[stack.length - 1]!.push({ kind: 'path', path: p.value });
    }
  }
  if (stack.length !== 1) return fail('unclosed range');
  return ok({ nodes: stack[0]! });
}

function descend(value: unknown, seg: Segment): unknown[] {
  switch (seg.kind) {
    case 'field':
      return value !== null && typeof value === 'object' && !Array.isArray(value) && seg.name in value ? [(value as Record<string, unknown>)[seg.name]] : [];
    case 'wildcard':
      return Array.isArray(value) ? value : value !== null && typeof value === 'object' ? Object.values(value) : [];
    case 'index': {
      if (!Array.isArray(value)) return [];
      const norm = (n: number): number => (n < 0 ? value.length + n : n);
      if (seg.single) {
        const at = norm(seg.start ?? 0);
        return at >= 0 && at < value.length ? [value[at]] : [];
      }
      return value.slice(norm(seg.start ?? 0), seg.end === undefined ? undefined : norm(seg.end));
    }
    case 'recursive': {
      const out: unknown[] = [];
      const walk = (v: unknown): void => {
        if (v === null || typeof v !== 'object') return;
        if (!Array.isArray(v) && seg.name in v) out.push((v as Record<string, unknown>)[seg.name]);
        for (const child of Object.values(v)) walk(child);
      };
      walk(value);
      return out;
    }
    case 'filter': {
      const items = Array.isArray(value) ? value : [];
      return items.filter((item) => {
        const found = evaluate(item, seg.path);
        if (seg.op === undefined) return found.length > 0;
        return found.some((f) => compare(f, seg.op!, seg.value));
      });
    }
  }
}

function compare(a: unknown, op: string, b: unknown): boolean {
  switch (op) {
    case '==': return a === b || String(a) === String(b);
    case '!=': return !(a === b || String(a) === String(b));
    case '<': return Number(a) < Number(b);
    case '>': return Number(a) > Number(b);
    case '<=': return Number(a) <= Number(b);
    default: return Number(a) >= Number(b);
  }
}

/** Every value a path reaches in `root`. */
export function evaluate(root: unknown, path: readonly Segment[]): unknown[] {
  let current: unknown[] = [root];
  for (const seg of path) current = current.flatMap((v) => descend(v, seg));
  return current;
}

/** How kubectl prints one result: strings bare, everything else as JSON. */
export function printValue(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function execute(nodes: readonly Node[], root: unknown): Result<string, string> {
  let out = '';
  for (const n of nodes) {
    if (n.kind === 'text') out += n.text;
    else if (n.kind === 'path') out += evaluate(root, n.path).map(printValue).join(' ');
    else {
      for (const item of evaluate(root, n.path).flatMap((v) => (Array.isArray(v) ? v : [v]))) {
        const body = execute(n.body, item);
        if (!body.ok) return body;
        out += body.value;
      }
    }
  }
  return ok(out);
}

/** Runs a template over an object. */
export function executeTemplate(t: Template, root: unknown): Result<string, string> {
  return execute(t.nodes, root);
}

/** The values of a single-path template (`{.status.phase}`), for comparisons such as `wait --for=jsonpath=`. */
export function templateValues(t: Template, root: unknown): unknown[] {
  const paths = t.nodes.filter((n) => n.kind === 'path');
  return paths.length === 1 && paths[0]?.kind === 'path' ? evaluate(root, paths[0].path) : [];
}
