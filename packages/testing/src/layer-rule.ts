/**
 * The layer rule over an import graph: the workspace packages, and the modules of a package (the first folder or
 * file under its `src/`), stand in layers, lowest first; a product file may import its own module and the modules
 * of lower layers only, never a higher layer nor a neighbour in its own layer. Tests (`*.test.ts`) and test support
 * may import any layer (a strategy's test may drive it through the HTTP handler), but nothing imports a test and
 * nothing of the product imports test support. No file may reach itself through its imports (no cycles, type-only
 * imports included). The layers are read from a fenced `layers` block of the architecture notes, so the rule and
 * its description cannot drift apart.
 */
import { posix } from 'node:path';
import type { Result } from '@svc-apiserver/api';
import type { ImportGraph, WorkspacePackage } from './import-graph.js';

/** One layer: the packages or modules that stand side by side in it. */
export interface Layer {
  readonly names: readonly string[];
}

/** The layers of the packages, and of the modules of the packages that have them; each list lowest first. */
export interface LayerTable {
  readonly packages: readonly Layer[];
  readonly modules: Readonly<Record<string, readonly Layer[]>>;
  /** Packages that are test support as a whole (only tests and test support import them). */
  readonly testSupportPackages: ReadonlySet<string>;
}

/**
 * Reads the fenced ```` ```layers ```` block of `markdown`. Each line is `<scope> <name> <name> ...`, lowest layer
 * first: scope `packages` names workspace directories (`api` for `packages/api`, `bench`), any other scope is such
 * a package and names its modules. A trailing `test-support` marks a package as test support. `#` starts a comment.
 */
export function parseLayerTable(markdown: string): Result<LayerTable, string> {
  const block = /^```layers\n([\s\S]*?)^```/m.exec(markdown);
  if (block === null) return { ok: false, error: 'no ```layers block' };
  const packages: Layer[] = [];
  const modules: Record<string, Layer[]> = {};
  const testSupportPackages = new Set<string>();
  for (const raw of block[1]!.split('\n')) {
    const words = raw.replace(/#.*/, '').trim().split(/\s+/).filter((w) => w !== '');
    if (words.length === 0) continue;
    const [scope, ...names] = words as [string, ...string[]];
    const testSupport = names[names.length - 1] === 'test-support';
    if (testSupport) names.pop();
    if (names.length === 0) return { ok: false, error: `a layer of ${scope} names nothing: ${JSON.stringify(raw)}` };
    if (testSupport && scope !== 'packages') return { ok: false, error: `test-support marks packages only: ${JSON.stringify(raw)}` };
    if (scope === 'packages') {
      packages.push({ names });
      if (testSupport) for (const n of names) testSupportPackages.add(n);
    } else {
      (modules[scope] ??= []).push({ names });
    }
  }
  return { ok: true, value: { packages, modules, testSupportPackages } };
}

/** What the rule needs to know of one file. */
export interface FileFacts {
  /** The package's directory name (`server` for `packages/server`, `bench`). */
  readonly packageName: string;
  /** Its module: the first folder or file under `src/` (`registry`, `config`), or the package's name without modules. */
  readonly module: string;
  readonly isTest: boolean;
  /**
   * Test support: a test-support package, a `testing/`, `testdata/`, `e2e/` or `reliability/` folder, or a conformance suite
   * (`*-suite.ts`) beside the interface it tests.
   */
  readonly isTestSupport: boolean;
}

/** The facts of `path` (repository-relative, `/`-separated) under `table`. */
export function factsOf(path: string, packages: readonly WorkspacePackage[], table: LayerTable): FileFacts {
  const pkg = packages.find((p) => path.startsWith(`${p.dir}/`));
  if (pkg === undefined) throw new Error(`${path} is in no workspace package`);
  const packageName = posix.basename(pkg.dir);
  const inSrc = path.slice(pkg.dir.length + 1).replace(/^src\//, '');
  const segments = inSrc.split('/');
  const module = table.modules[packageName] === undefined
    ? packageName
    : segments.length > 1 ? segments[0]! : segments[0]!.replace(/(\.test)?\.ts$/, '');
  const folders = segments.slice(0, -1);
  return {
    packageName,
    module,
    isTest: path.endsWith('.test.ts'),
    isTestSupport: table.testSupportPackages.has(packageName)
      || folders.some((f) => f === 'testing' || f === 'testdata' || f === 'e2e' || f === 'reliability') || path.endsWith('-suite.ts'),
  };
}

/** The index of the layer naming `name`, or undefined. */
function rankIn(layers: readonly Layer[], name: string): number | undefined {
  const i = layers.findIndex((l) => l.names.includes(name));
  return i < 0 ? undefined : i;
}

/** Why an import of `to` by `from` breaks the order of `layers` (`what` names the kind), or undefined. */
function orderBreach(layers: readonly Layer[], from: string, to: string, what: string): string | undefined {
  const a = rankIn(layers, from);
  const b = rankIn(layers, to);
  if (a === undefined) return `${what} ${from} is in no layer`;
  if (b === undefined) return `${what} ${to} is in no layer`;
  if (b > a) return `${what} ${from} is below ${to}`;
  if (b === a) return `${what} ${from} and ${to} stand side by side in one layer`;
  return undefined;
}

/** Every import that breaks the layer rule, and every file in no layer, in words; empty when the graph keeps it. */
export function layerViolations(graph: ImportGraph, packages: readonly WorkspacePackage[], table: LayerTable): string[] {
  const out: string[] = [];
  const facts = new Map(graph.files.map((f) => [f, factsOf(f, packages, table)]));
  for (const [file, f] of facts) {
    if (rankIn(table.packages, f.packageName) === undefined) out.push(`${file}: package ${f.packageName} is in no layer`);
    const layers = table.modules[f.packageName];
    if (layers !== undefined && rankIn(layers, f.module) === undefined) out.push(`${file}: module ${f.module} is in no layer of ${f.packageName}`);
  }
  for (const edge of graph.edges) {
    const a = facts.get(edge.from)!;
    const b = facts.get(edge.to)!;
    const at = `${edge.from} imports ${edge.to}`;
    if (b.isTest) {
      out.push(`${at}: nothing imports a test`);
      continue;
    }
    if (b.isTestSupport && !a.isTest && !a.isTestSupport) out.push(`${at}: only tests and test support import test support`);
    if (a.isTest || a.isTestSupport) continue;
    if (a.packageName !== b.packageName) {
      const breach = orderBreach(table.packages, a.packageName, b.packageName, 'package');
      if (breach !== undefined) out.push(`${at}: ${breach}`);
      continue;
    }
    const layers = table.modules[a.packageName];
    if (layers === undefined || a.module === b.module) continue;
    const breach = orderBreach(layers, a.module, b.module, 'module');
    if (breach !== undefined) out.push(`${at}: ${breach}`);
  }
  return [...new Set(out)].sort();
}

/**
 * The import cycles of the graph (Tarjan's strongly connected components): each as the files that reach one
 * another, sorted; a file importing itself is a cycle of one.
 */
export function importCycles(graph: ImportGraph): string[][] {
  const next = new Map<string, string[]>(graph.files.map((f) => [f, []]));
  for (const e of graph.edges) next.get(e.from)?.push(e.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let counter = 0;
  // Iterative, so a long import chain cannot overflow the call stack.
  for (const start of graph.files) {
    if (index.has(start)) continue;
    const work: { node: string; i: number }[] = [{ node: start, i: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const targets = next.get(top.node) ?? [];
      if (top.i < targets.length) {
        const to = targets[top.i++]!;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, i: 0 });
        } else if (onStack.has(to)) {
          low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) !== index.get(top.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== top.node);
      if (component.length > 1 || targets.includes(top.node)) cycles.push(component.sort());
    }
  }
  return cycles;
}
