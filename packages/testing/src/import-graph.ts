/**
 * The import graph of the workspace's TypeScript sources: every file under each package's `src/`, and an edge for
 * every import of another workspace file, whatever its kind (`import`, `import type`, `export ... from`,
 * `import()`). Specifiers are read with the compiler's own import scanner (ts.preProcessFile), not parsed by hand;
 * relative ones and the packages' own names (`@svc-apiserver/api/label-selector`, `svc-apiserver/registry/...`) are
 * resolved to source files as the packages' `"./*": "./dist/*.js"` exports map them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, sep } from 'node:path';
import ts from 'typescript';

/** A workspace package: its npm name and its directory, relative to the repository root (`packages/api`). */
export interface WorkspacePackage {
  readonly name: string;
  readonly dir: string;
}

/** One import of a workspace file by another; paths relative to the repository root, `/`-separated. */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
  readonly specifier: string;
}

/** The files and their imports of one another. */
export interface ImportGraph {
  readonly files: readonly string[];
  readonly edges: readonly ImportEdge[];
}

/** The module specifiers a source text imports, of every kind (type-only and re-exports included). */
export function importsOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/** The workspace packages the root `package.json` lists, with the names their own `package.json` files give. */
export function workspacePackages(repoRoot: string): WorkspacePackage[] {
  const root = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { workspaces?: string[] };
  return (root.workspaces ?? []).map((dir) => {
    const own = JSON.parse(readFileSync(join(repoRoot, dir, 'package.json'), 'utf8')) as { name: string };
    return { name: own.name, dir };
  });
}

const toPosix = (path: string): string => path.split(sep).join('/');

function sourcesUnder(repoRoot: string, dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = posix.join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(repoRoot, path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * Where a specifier imported by `from` leads, when it is a workspace source file; undefined for node built-ins,
 * third-party packages and files outside the sources.
 */
function resolveSpecifier(specifier: string, from: string, packages: readonly WorkspacePackage[], files: ReadonlySet<string>): string | undefined {
  let candidate: string | undefined;
  if (specifier.startsWith('.')) {
    candidate = posix.normalize(posix.join(posix.dirname(from), specifier));
  } else {
    const pkg = packages.find((p) => specifier === p.name || specifier.startsWith(`${p.name}/`));
    if (pkg === undefined) return undefined;
    const subpath = specifier === pkg.name ? 'index' : specifier.slice(pkg.name.length + 1);
    candidate = posix.join(pkg.dir, 'src', subpath);
  }
  for (const path of [candidate.replace(/\.js$/, '.ts'), `${candidate}.ts`, posix.join(candidate, 'index.ts')]) {
    if (files.has(path)) return path;
  }
  return undefined;
}

/** Reads the import graph of every package's `src/`. */
export function buildImportGraph(repoRoot: string, packages: readonly WorkspacePackage[]): ImportGraph {
  const files = packages.flatMap((p) => sourcesUnder(repoRoot, posix.join(toPosix(p.dir), 'src')));
  const known = new Set(files);
  const edges: ImportEdge[] = [];
  for (const from of files) {
    for (const specifier of importsOf(readFileSync(join(repoRoot, from), 'utf8'))) {
      const to = resolveSpecifier(specifier, from, packages, known);
      if (to !== undefined) edges.push({ from, to, specifier });
    }
  }
  return { files, edges };
}

