/**
 * An append-only log file that rotates by size, as kube-apiserver's audit log does through lumberjack
 * (`--audit-log-maxsize`, `--audit-log-maxbackup`, `--audit-log-maxage`): when a write would take the file past
 * its size limit, the file is renamed to `<name>-<UTC time>.<ext>` (time as `2006-01-02T15-04-05.000`) and a new
 * one is started; backups beyond the count limit, and backups older than the age limit, are removed. Hand-written:
 * the npm rotation packages name and prune backups their own way, and these names and limits are what operators'
 * log shippers expect of kube-apiserver.
 */
import { open, readdir, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';

/** Limits of a rotating file. */
export interface RotationLimits {
  /** Bytes before rotation; 0 means lumberjack's default of 100 MiB. */
  readonly maxSizeBytes: number;
  /** Backups kept; 0 keeps every one (unless too old). */
  readonly maxBackups: number;
  /** Days a backup is kept; 0 keeps them whatever their age. */
  readonly maxAgeDays: number;
}

/** A rotating file. */
export interface RotatingFile {
  /** Appends `text` (whole lines), rotating first when it would not fit. */
  write(text: string): Promise<void>;
  close(): Promise<void>;
}

const defaultMaxSize = 100 * 1024 * 1024;
const backupTime = (d: Date): string => d.toISOString().replace(/:/g, '-').replace(/Z$/, '');
const backupTimeRe = /^(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3})$/;

/** Opens (appending to) the file at `path`. */
export async function openRotatingFile(path: string, limits: RotationLimits, now: () => Date = () => new Date()): Promise<RotatingFile> {
  const maxSize = limits.maxSizeBytes > 0 ? limits.maxSizeBytes : defaultMaxSize;
  const dir = dirname(path);
  const ext = extname(path);
  const prefix = `${basename(path, ext)}-`;
  let handle: FileHandle = await open(path, 'a', 0o600);
  let size = (await handle.stat()).size;

  const backupsOldestFirst = async (): Promise<{ name: string; time: number }[]> => {
    const out: { name: string; time: number }[] = [];
    for (const name of await readdir(dir)) {
      if (!name.startsWith(prefix) || !name.endsWith(ext)) continue;
      const stamp = name.slice(prefix.length, name.length - ext.length);
      const m = backupTimeRe.exec(stamp);
      if (m === null) continue;
      const [date, time] = m[1]!.split('T') as [string, string];
      const t = Date.parse(`${date}T${time.replace(/-/g, ':').replace(/:(\d{3})$/, '.$1')}Z`);
      if (Number.isFinite(t)) out.push({ name, time: t });
    }
    return out.sort((a, b) => a.time - b.time);
  };

  const prune = async (): Promise<void> => {
    let backups = await backupsOldestFirst();
    if (limits.maxAgeDays > 0) {
      const cutoff = now().getTime() - limits.maxAgeDays * 24 * 3600 * 1000;
      for (const b of backups.filter((x) => x.time < cutoff)) await unlink(join(dir, b.name)).catch(() => {});
      backups = backups.filter((x) => x.time >= cutoff);
    }
    if (limits.maxBackups > 0 && backups.length > limits.maxBackups) {
      for (const b of backups.slice(0, backups.length - limits.maxBackups)) await unlink(join(dir, b.name)).catch(() => {});
    }
  };

  const rotate = async (): Promise<void> => {
    await handle.close();
    let target = join(dir, `${prefix}${backupTime(now())}${ext}`);
    // Two rotations in one millisecond: the later one waits for a name of its own.
    while (await stat(target).then(() => true, () => false)) {
      await new Promise((r) => setTimeout(r, 1));
      target = join(dir, `${prefix}${backupTime(now())}${ext}`);
    }
    await rename(path, target);
    handle = await open(path, 'a', 0o600);
    size = 0;
    await prune();
  };

  return {
    async write(text) {
      const bytes = Buffer.byteLength(text);
      if (size > 0 && size + bytes > maxSize) await rotate();
      await handle.write(text);
      size += bytes;
    },
    async close() {
      await handle.close();
    },
  };
}
