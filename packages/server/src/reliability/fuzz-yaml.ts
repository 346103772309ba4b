/**
 * YAML bodies for the fuzzer: valid objects in block and flow style, then what YAML allows beyond JSON and what
 * breaks readers: anchors and aliases (from a merge key to a billion laughs and a large string aliased many times),
 * tags (core, YAML 1.1, local, verbatim, on the wrong kind of node), several or empty documents, directives,
 * nesting far past the limit in block, flow and compact form, tabs, CRLF, NUL bytes, a BOM, and text cut anywhere.
 */
import { stringify } from 'yaml';
import type { Random } from './fuzz-random.js';
import { interestingDepth, jsonText, oddString, type Json } from './fuzz-values.js';

/** YAML text of a value, in block or flow style. */
export function yamlText(value: Json, flow: boolean): string {
  if (flow) return jsonText(value);
  return stringify(JSON.parse(jsonText(value)) as unknown, { version: '1.1', lineWidth: 0 });
}

/** A billion-laughs document of `levels` levels, `width` aliases each. */
export function aliasBomb(levels: number, width: number): string {
  const lines = [`a0: &a0 [${Array.from({ length: width }, () => '"lol"').join(',')}]`];
  for (let i = 1; i < levels; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: width }, () => `*a${i - 1}`).join(',')}]`);
  return lines.join('\n') + '\n';
}

const tags = [
  '!!binary', '!!str', '!!int', '!!float', '!!bool', '!!null', '!!set', '!!omap', '!!pairs', '!!seq', '!!map',
  '!!timestamp', '!custom', '!<tag:yaml.org,2002:str>', '!<tag:example.com,2000:x>', '!', '!!merge', '!!value', '!!yaml',
];

/** Deeply nested YAML text in one of the styles readers recurse on. */
export function deepYaml(r: Random, depth: number): string {
  switch (r.int(4)) {
    case 0:
      return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    case 1:
      return 'x: ' + '['.repeat(depth) + '1' + ']'.repeat(depth) + '\n';
    case 2:
      return '- '.repeat(depth) + '1\n';
    default: {
      const levels = Math.min(depth, 600);
      return Array.from({ length: levels }, (_, i) => ' '.repeat(i) + 'a:\n').join('') + ' '.repeat(levels) + 'b: 1\n';
    }
  }
}

/** A YAML body built from `object`, bent one way or another. */
export function yamlBody(r: Random, object: Json, depthLimit: number): string {
  const base = (): string => yamlText(object, r.chance(0.2));
  return r.weighted<() => string>([
    [5, base],
    [2, () => aliasBomb(r.range(3, 10), r.range(3, 10))],
    [1, () => `x: &x "${'y'.repeat(r.pick([1000, 100_000, 1_000_000]))}"\n` + Array.from({ length: r.pick([5, 50, 500]) }, (_, i) => `k${i}: *x`).join('\n') + '\n'],
    [2, () => `${base()}defaults: &d {cpu: 1, mem: [1, 2]}\nother:\n  <<: ${r.pick(['*d', '[*d, *d]', '5', '"x"', '*nope', '[1]'])}\n  extra: ${r.pick(['*d', '&e x', '*d2'])}\n`],
    [3, () => {
      const lines = base().split('\n');
      const i = r.int(Math.max(1, lines.length - 1));
      lines[i] = lines[i]!.replace(/: (.*)$/, (_m, v: string) => `: ${r.pick(tags)} ${r.chance(0.5) ? v : oddString(r)}`);
      return lines.join('\n');
    }],
    [1, () => `${base()}---\n${base()}`],
    [1, () => r.pick(['', '---\n', '---\n...\n', '--- !!null\n', '%YAML 1.2\n---\na: 1\n', '%TAG ! tag:x,2000:\n---\n!a {b: 1}\n', '%FOO bar\n---\n{}\n', '...\n'])],
    [2, () => deepYaml(r, interestingDepth(r, depthLimit))],
    [1, () => base().replace(/^( +)/gm, (m) => (r.chance(0.3) ? '\t' + m.slice(1) : m))],
    [1, () => base().replace(/\n/g, '\r\n')],
    [1, () => '\ufeff' + base()],
    [1, () => { const t = base(); return t.slice(0, r.int(t.length + 1)); }],
    [1, () => { const t = base(); const i = r.int(t.length + 1); return t.slice(0, i) + r.pick(['\u0000', '"', '[', '{', ': ', '- ', '&', '*', '!', '|', '>', '? ', '%']) + t.slice(i); }],
    [1, () => `? [${oddString(r)}]\n: complex key\n? {a: 1}\n: x\n${base()}`],
    [1, () => `${base()}dup: 1\ndup: 2\n`],
    [1, () => `a: |${r.pick(['', '-', '+', '2', '9', '-1'])}\n${r.pick(['  x\n', ' \t y\n', '      deep\n  shallow\n', ''])}b: >\n  folded\n`],
    [1, () => `big: ${'9'.repeat(r.pick([20, 400, 5000]))}\nneg: -${'1'.repeat(30)}\nhex: 0x${'f'.repeat(r.pick([16, 17, 40]))}\noct: 0${'7'.repeat(30)}\nexp: 1e${r.pick([308, 309, 99999])}\n`],
  ])();
}
