/**
 * What the load generator sends: one request shape per run, its path and body templates filled per request, and
 * how requests are turned into the bytes of an HTTP/1.1 message. Shared by the parent (which checks plans) and the
 * worker processes (which render them).
 *
 * Template fields: `{c}` the connection's number (0 to connections−1, across all worker processes), `{i}` the
 * request's number on its connection in this run, `{n}` a number unique across the run (`c + i × connections`,
 * so a run with `count` stops after exactly `count` requests numbered 0 to count−1), `{k}` the request's number
 * modulo `modulo[c]` (gets cycling over what that connection created in an earlier run). With `connections` set,
 * `{n}` is strided over those connections only.
 */

/** One run's request shape. */
export interface LoadPlan {
  readonly method: string;
  /** The request target (path and query), a template. */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The body, a template. */
  readonly body?: string;
  /** The status that counts as success; any other is an error. */
  readonly expect: number;
  /** Per connection, what `{k}` cycles over (at least 1). */
  readonly modulo?: readonly number[];
  /** Stop after this many requests in all (`{n}` from 0 to count−1), or when the time is up, whichever comes first. */
  readonly count?: number;
  /** Only connections 0 to this−1 send (one connection: requests one after another, as a lone client). */
  readonly connections?: number;
}

/** The numbers a template is filled with. */
export interface RequestNumbers {
  readonly c: number;
  readonly i: number;
  readonly n: number;
  readonly k: number;
}

type Field = keyof RequestNumbers;

/** A template split once into literal text and the fields between it. */
export interface Template {
  readonly literals: readonly string[];
  readonly fields: readonly Field[];
}

const fieldPattern = /\{([cink])\}/g;

/** Splits a template; a template without fields has one literal. */
export function parseTemplate(text: string): Template {
  const literals: string[] = [];
  const fields: Field[] = [];
  let last = 0;
  for (const m of text.matchAll(fieldPattern)) {
    literals.push(text.slice(last, m.index));
    fields.push(m[1] as Field);
    last = m.index + m[0].length;
  }
  literals.push(text.slice(last));
  return { literals, fields };
}

/** Fills a template. */
export function fill(t: Template, numbers: RequestNumbers): string {
  let out = t.literals[0]!;
  for (let j = 0; j < t.fields.length; j++) out += String(numbers[t.fields[j]!]) + t.literals[j + 1]!;
  return out;
}

/** Renders the requests of a plan for one target host. */
export interface RequestRenderer {
  /** True when every request is the same bytes (no template fields). */
  readonly constant: boolean;
  render(numbers: RequestNumbers): Buffer;
}

/** The renderer of a plan: the head's fixed lines joined once, the templates filled per request. */
export function requestRenderer(plan: LoadPlan, host: string, token?: string): RequestRenderer {
  const path = parseTemplate(plan.path);
  const body = plan.body === undefined ? undefined : parseTemplate(plan.body);
  let fixed = `host: ${host}\r\n`;
  if (token !== undefined) fixed += `authorization: Bearer ${token}\r\n`;
  for (const [name, value] of Object.entries(plan.headers ?? {})) fixed += `${name}: ${value}\r\n`;
  const render = (numbers: RequestNumbers): Buffer => {
    const target = fill(path, numbers);
    if (body === undefined) return Buffer.from(`${plan.method} ${target} HTTP/1.1\r\n${fixed}\r\n`);
    const text = fill(body, numbers);
    return Buffer.from(`${plan.method} ${target} HTTP/1.1\r\n${fixed}content-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
  };
  const constant = path.fields.length === 0 && (body === undefined || body.fields.length === 0);
  if (!constant) return { constant, render };
  const bytes = render({ c: 0, i: 0, n: 0, k: 0 });
  return { constant, render: () => bytes };
}
