/**
 * A reader of the Prometheus text exposition format (version 0.0.4) for tests: metric families with their help,
 * type and samples, label values unescaped. Strict: a line it cannot read fails the test that scraped it.
 */

/** One sample line. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** One metric family: its `# HELP`, its `# TYPE` and its samples (`_bucket`, `_sum`, `_count` of a histogram too). */
export interface Family {
  help: string;
  type: string;
  readonly samples: Sample[];
}

const sampleLine = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: -?\d+)?$/;
const labelPair = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(,|$)/y;

function unescape(value: string): string {
  return value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
}

/**
 * A sample value as Prometheus reads it (Go's strconv.ParseFloat): the special values in any case, so prom-client's
 * `Nan` (its spelling of NaN, e.g. an event-loop lag mean before the first sample) reads as the NaN it is.
 */
function parseValue(text: string): number {
  if (/^\+?inf(inity)?$/i.test(text)) return Infinity;
  if (/^-inf(inity)?$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  const n = Number(text);
  if (Number.isNaN(n)) throw new Error(`not a sample value: ${text}`);
  return n;
}

/** The family a sample belongs to: its own name, or the name without a histogram or summary suffix. */
function familyOf(families: Map<string, Family>, name: string): Family {
  for (const candidate of [name, name.replace(/_(bucket|sum|count)$/, '')]) {
    const f = families.get(candidate);
    if (f !== undefined) return f;
  }
  throw new Error(`sample ${name} has no # TYPE line before it`);
}

/** Reads an exposition into its families by name. */
export function parseExposition(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const meta = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) ?(.*)$/.exec(line);
    if (meta !== null) {
      const [, what, name, rest] = meta;
      let f = families.get(name!);
      if (f === undefined) {
        f = { help: '', type: '', samples: [] };
        families.set(name!, f);
      }
      if (what === 'HELP') f.help = unescape(rest!);
      else f.type = rest!;
      continue;
    }
    if (line.startsWith('#')) continue;
    const m = sampleLine.exec(line);
    if (m === null) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    const body = m[2] ?? '';
    labelPair.lastIndex = 0;
    while (labelPair.lastIndex < body.length) {
      const p = labelPair.exec(body);
      if (p === null) throw new Error(`bad labels in: ${line}`);
      labels[p[1]!] = unescape(p[2]!);
    }
    familyOf(families, m[1]!).samples.push({ name: m[1]!, labels, value: parseValue(m[3]!) });
  }
  return families;
}

const sameLabels = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean => {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
};

/** Every sample named `name` of the exposition. */
export function samplesOf(families: Map<string, Family>, name: string): Sample[] {
  return [...families.values()].flatMap((f) => f.samples.filter((s) => s.name === name));
}

/** The value of the sample `name` whose labels are exactly `labels`; undefined when there is none. */
export function sampleValue(families: Map<string, Family>, name: string, labels: Readonly<Record<string, string>>): number | undefined {
  return samplesOf(families, name).find((s) => sameLabels(s.labels, labels))?.value;
}
