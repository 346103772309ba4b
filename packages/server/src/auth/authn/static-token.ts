/**
 * Static token file authentication (`--token-auth-file`, kube-apiserver's tokenfile authenticator): a CSV file
 * of `token,user,uid[,"group1,group2"]` read once at start. Tokens last until the server restarts.
 */
import { readFileSync } from 'node:fs';
import { fail, ok, type Result } from '@svc-apiserver/api';
import type { UserInfo } from '../../request/user-info.js';
import type { TokenAuthenticator } from './authenticator.js';

/**
 * Splits CSV text into records (RFC 4180 quoting, as Go's encoding/csv reads it with leading spaces trimmed).
 * Written here because the format is small and no dependency of this package parses CSV.
 */
export function parseCsv(text: string): Result<string[][], string> {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  let line = 1;
  let atFieldStart = true;
  const endField = (): void => {
    record.push(field);
    field = '';
    atFieldStart = true;
  };
  const endRecord = (): void => {
    endField();
    if (!(record.length === 1 && record[0] === '')) records.push(record);
    record = [];
  };
  const src = text.replace(/^\uFEFF/, '');
  while (i < src.length) {
    const c = src[i]!;
    if (atFieldStart && (c === ' ' || c === '\t')) {
      i++;
      continue;
    }
    if (atFieldStart && c === '"') {
      i++;
      for (;;) {
        if (i >= src.length) return fail(`line ${line}: extraneous or missing " in quoted-field`);
        const q = src[i]!;
        if (q === '"') {
          if (src[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (q === '\n') line++;
        field += q;
        i++;
      }
      atFieldStart = false;
      const after = src[i];
      if (after !== undefined && after !== ',' && after !== '\n' && after !== '\r') {
        return fail(`line ${line}: extraneous or missing " in quoted-field`);
      }
      continue;
    }
    atFieldStart = false;
    if (c === ',') {
      endField();
      i++;
    } else if (c === '\r' && src[i + 1] === '\n') {
      endRecord();
      i += 2;
      line++;
    } else if (c === '\n') {
      endRecord();
      i++;
      line++;
    } else if (c === '"') {
      return fail(`line ${line}: bare " in non-quoted-field`);
    } else {
      field += c;
      i++;
    }
  }
  if (field !== '' || record.length > 0) endRecord();
  return ok(records);
}

/** Reads a token file's text into its token → user table; an error names the bad record. */
export function parseTokenFile(text: string, path = 'token file'): Result<Map<string, UserInfo>, string> {
  const parsed = parseCsv(text);
  if (!parsed.ok) return fail(`${path}: ${parsed.error}`);
  const tokens = new Map<string, UserInfo>();
  for (const [n, record] of parsed.value.entries()) {
    if (record.length < 3) {
      return fail(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length} in record ${n + 1}`);
    }
    const [token, username, uid, groups] = record as [string, string, string, string | undefined];
    // kube-apiserver skips empty tokens with a warning: they could never be presented.
    if (token === '') continue;
    tokens.set(token, {
      username,
      uid,
      groups: groups === undefined ? [] : groups.split(',').map((g) => g.trim()).filter((g) => g !== ''),
    });
  }
  return ok(tokens);
}

/** The authenticator over a token table. */
export function staticTokenAuthenticator(tokens: ReadonlyMap<string, UserInfo>): TokenAuthenticator {
  return {
    name: 'token-file',
    async authenticateToken(token) {
      const user = tokens.get(token);
      return user === undefined ? { kind: 'none' } : { kind: 'user', method: 'token-file', user };
    },
  };
}

/** Loads `--token-auth-file`. */
export function loadStaticTokenFile(path: string): Result<TokenAuthenticator, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return fail(`cannot read token file: ${(e as Error).message}`);
  }
  const table = parseTokenFile(text, path);
  return table.ok ? ok(staticTokenAuthenticator(table.value)) : table;
}
