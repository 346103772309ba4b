/**
 * `svcctl edit TYPE NAME... [-o yaml|json] [--output-patch] [--save-config]`, as kubectl's edit: the objects (a
 * `List` when there are several, managedFields left out) go to `$SVC_EDITOR`, `$KUBE_EDITOR` or `$EDITOR` (vi
 * otherwise) under kubectl's comment header; each changed object is sent back as a patch of what changed (fields
 * removed become null), refusing a change of apiVersion, kind or name. When the server finds an edit invalid, the
 * editor opens again on the edited text with the reasons in the header; saving it unchanged gives up and keeps a
 * copy. A conflict or another failure keeps the file and proposes `replace -f`.
 *
 * kubectl sends built-in kinds a strategic merge patch; this sends every kind a JSON merge patch (as kubectl does
 * for custom resources): the result is the edited object either way, except that a list someone else changed
 * meanwhile is replaced by the edited list rather than merged by key.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject, Status } from '@svc-apiserver/api';
import { parseAllDocuments, stringify } from 'yaml';
import { threeWayMergePatch } from '../merge-patch.js';
import { error, namedTargets, objectName, refOf, reportStatus, serverNames, type NamedTarget, type Session } from '../session.js';

const header = `# Please edit the object below. Lines beginning with a '#' will be ignored,
# and an empty file will abort the edit. If an error occurs while saving this file will be
# reopened with the relevant failures.
#
`;

/** Why the editor reopens: a head line and its causes. */
interface Reason {
  readonly head: string;
  readonly causes: readonly string[];
}

/** kubectl's hashOnLineBreak: continuation lines of a comment stay comments. */
const commented = (s: string): string => s.replace(/\n(?!#)/g, '\n# ');

function headerWith(reasons: readonly Reason[]): string {
  let out = header;
  for (const r of reasons) {
    out += `# ${commented(r.head)}${r.causes.length > 0 ? ':' : ''}\n`;
    for (const c of r.causes) out += `# * ${commented(c)}\n`;
    out += '#\n';
  }
  return out;
}

/** The text without comment lines (kubectl's StripComments). */
const stripComments = (text: string): string => text.split('\n').filter((l) => !l.trimStart().startsWith('#')).join('\n');

/** True when a line holds something besides white space and comments. */
const hasLines = (text: string): boolean => text.split('\n').some((l) => l.trim() !== '' && !l.trim().startsWith('#'));

function serialize(value: unknown, json: boolean): string {
  return json ? `${JSON.stringify(value, null, 4)}\n` : stringify(value, { lineWidth: 0 });
}

/** The objects of an edited file: one object, or the items of a List. */
function parseEdited(text: string): { ok: true; objects: KubeObject[] } | { ok: false; message: string } {
  const docs = parseAllDocuments(stripComments(text));
  const values: unknown[] = [];
  for (const doc of Array.isArray(docs) ? docs : [docs]) {
    if (doc.errors.length > 0) return { ok: false, message: doc.errors[0]?.message ?? 'unparsable' };
    const v: unknown = doc.toJS();
    if (v !== null && v !== undefined) values.push(v);
  }
  const objects: KubeObject[] = [];
  for (const v of values) {
    if (typeof v !== 'object' || Array.isArray(v)) return { ok: false, message: 'the edited file holds something that is not an object' };
    const o = v as KubeObject & { items?: unknown };
    if (o.kind === 'List' && Array.isArray(o.items)) objects.push(...(o.items as KubeObject[]));
    else objects.push(o);
  }
  return { ok: true, objects };
}

const withoutManagedFields = (o: KubeObject): KubeObject => {
  const { managedFields: _dropped, ...metadata } = o.metadata ?? {};
  return { ...o, metadata };
};

/** The editor's run: `sh -c "$EDITOR file"`, as kubectl runs an editor with arguments. */
function runEditor(s: Session, file: string): boolean {
  const editor = s.io.env.SVC_EDITOR ?? s.io.env.KUBE_EDITOR ?? s.io.env.EDITOR ?? 'vi';
  return spawnSync(`${editor} "${file}"`, { shell: true, stdio: 'inherit', env: s.io.env }).status === 0;
}

/** Runs `edit`. */
export async function cmdEdit(s: Session, args: string[]): Promise<number> {
  const output = s.flags.output ?? 'yaml';
  if (output !== 'yaml' && output !== 'json') return error(s.io, `unable to match a printer suitable for the output format "${output}", allowed formats are: json,yaml`);
  const json = output === 'json';
  const t = await namedTargets(s, args);
  if (!t.ok) return t.error;
  const originals: Array<{ target: NamedTarget; object: KubeObject }> = [];
  for (const target of t.value.targets) {
    const got = await s.client.get(refOf(target.r, target.ns ?? s.namespace), target.name);
    if (!got.ok) return reportStatus(s.io, got.error);
    const { r } = target;
    originals.push({ target, object: withoutManagedFields({ ...got.value, apiVersion: r.group ? `${r.group}/${r.version}` : r.version, kind: r.kind }) });
  }
  const shown = originals.length === 1 ? originals[0]?.object : { apiVersion: 'v1', items: originals.map((o) => o.object), kind: 'List', metadata: {} };
  const original = serialize(shown, json);
  const names = s.flags['save-config'] ? await serverNames(s) : undefined;
  if (names && !names.ok) return reportStatus(s.io, names.error);
  const lastApplied = names?.ok ? names.value.domain('last-applied-configuration', 'kubectl') : undefined;

  const dir = mkdtempSync(join(tmpdir(), 'svcctl-edit-'));
  const file = join(dir, `svcctl-edit-${process.pid}.${json ? 'json' : 'yaml'}`);
  let kept = false;
  const keep = (): void => {
    kept = true;
    s.io.stderr(`A copy of your changes has been stored to "${file}"\n`);
  };
  let reasons: Reason[] = [];
  let body = original;
  let previous: string | undefined;
  const done = new Set<string>();
  try {
    for (;;) {
      writeFileSync(file, headerWith(reasons) + body);
      if (!runEditor(s, file)) {
        keep();
        return error(s.io, 'there was a problem with the editor');
      }
      const edited = readFileSync(file, 'utf8');
      if (previous !== undefined && stripComments(previous) === stripComments(edited)) {
        keep();
        return error(s.io, 'Edit cancelled, no valid changes were saved.');
      }
      if (stripComments(headerWith([]) + original) === stripComments(edited)) {
        s.io.stderr('Edit cancelled, no changes made.\n');
        return 0;
      }
      if (!hasLines(edited)) {
        s.io.stderr('Edit cancelled, saved file was empty.\n');
        return 0;
      }
      previous = edited;
      body = stripComments(edited).replace(/^\n+/, '');
      const parsed = parseEdited(edited);
      if (!parsed.ok) {
        reasons = [{ head: `The edited file had a syntax error: ${parsed.message}`, causes: [] }];
        continue;
      }
      reasons = [];
      let retryable = 0;
      let notFound = 0;
      for (const editedObject of parsed.objects) {
        const key = `${editedObject.kind ?? ''}/${editedObject.metadata?.namespace ?? ''}/${editedObject.metadata?.name ?? ''}`;
        if (done.has(key)) continue;
        const match = originals.find((o) => o.object.kind === editedObject.kind && o.object.metadata?.name === editedObject.metadata?.name
          && (o.object.metadata?.namespace ?? '') === (editedObject.metadata?.namespace ?? ''));
        if (!match) {
          keep();
          return error(s.io, 'At least one of apiVersion, kind and name was changed');
        }
        const wanted = lastApplied === undefined ? editedObject
          : { ...editedObject, metadata: { ...editedObject.metadata, annotations: { ...editedObject.metadata?.annotations, [lastApplied]: JSON.stringify(editedObject) } } };
        const patch = threeWayMergePatch(match.object, wanted, match.object);
        const { r, name } = match.target;
        if (Object.keys(patch).length === 0) {
          s.io.stdout(`${objectName(r, name)} skipped\n`);
          continue;
        }
        const meta = patch.metadata as Record<string, unknown> | undefined;
        if ('apiVersion' in patch || 'kind' in patch || (meta && ('name' in meta || 'managedFields' in meta))) {
          keep();
          return error(s.io, 'At least one of apiVersion, kind and name was changed');
        }
        if (s.flags['output-patch']) s.io.stdout(`Patch: ${JSON.stringify(patch)}\n`);
        const patched = await s.client.patch(refOf(r, match.target.ns ?? match.object.metadata?.namespace ?? s.namespace), name, 'merge', patch);
        const what = `${r.group ? `${r.resource}.${r.group}` : r.resource} "${name}"`;
        if (patched.ok) {
          done.add(key);
          s.io.stdout(`${objectName(r, name)} edited\n`);
        } else if (patched.error.code === 422) {
          reasons.push({ head: `${what} was not valid`, causes: causesOf(patched.error) });
          s.io.stderr(`error: ${what} is invalid\n`);
        } else if (patched.error.code === 404) {
          notFound++;
          s.io.stderr(`error: ${what} could not be found on the server\n`);
        } else {
          retryable++;
          s.io.stderr(`error: ${what} could not be patched: ${patched.error.message ?? ''}\n`);
        }
      }
      if (retryable > 0) {
        kept = true;
        s.io.stderr(`You can run \`svcctl replace -f ${file}\` to try this update again.\n`);
        return 1;
      }
      if (notFound > 0) {
        kept = true;
        s.io.stderr(`The edits you made on deleted resources have been saved to "${file}"\n`);
        return 1;
      }
      if (reasons.length === 0) return 0;
    }
  } finally {
    // a copy the user was told about stays
    if (!kept) rmSync(dir, { recursive: true, force: true });
  }
}

/** `field: message` of each cause of an Invalid Status, as kubectl lists them. */
function causesOf(status: Status): string[] {
  return (status.details?.causes ?? []).map((c) => `${c.field ?? ''}: ${c.message ?? ''}`);
}
