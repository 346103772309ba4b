/**
 * Media types with parameters, as they appear in Content-Type and Accept headers.
 * Parsing is by hand: the grammar is small and no dependency here does both headers with q-values.
 */

/** One media type or media range: `application/json;as=Table;v=v1;g=meta.k8s.io`. */
export interface MediaType {
  /** `type/subtype`, lowercased. */
  readonly type: string;
  /** Parameters other than `q`, names lowercased. */
  readonly params: Readonly<Record<string, string>>;
  /** Quality, 1 when absent. */
  readonly q: number;
}

/** Parses one media type (`Content-Type` or one Accept entry); undefined when it has no `type/subtype`. */
export function parseMediaType(text: string): MediaType | undefined {
  const [head, ...rest] = text.split(';');
  const type = (head ?? '').trim().toLowerCase();
  // `@` is not a token character, but the gnostic OpenAPI media type uses it.
  if (!/^[a-z0-9!#$&^_.+*-]+\/[a-z0-9!#$&^_.+*@-]+$/.test(type)) return undefined;
  const params: Record<string, string> = {};
  let q = 1;
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    const key = p.slice(0, eq).trim().toLowerCase();
    let value = p.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    if (key === 'q') {
      const n = Number(value);
      q = Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 1;
    } else if (key) params[key] = value;
  }
  return { type, params, q };
}

/** Parses an Accept header into its entries, best first (by q, then as sent); entries with q=0 are dropped. */
export function parseAccept(header: string | undefined): MediaType[] {
  if (!header || header.trim() === '') return [];
  const entries: { m: MediaType; i: number }[] = [];
  header.split(',').forEach((part, i) => {
    const m = parseMediaType(part);
    if (m && m.q > 0) entries.push({ m, i });
  });
  entries.sort((a, b) => b.m.q - a.m.q || a.i - b.i);
  return entries.map((e) => e.m);
}

/** True when a media range (`*\/*`, `application/*`, `application/json`) covers a concrete type. */
export function rangeMatches(range: string, type: string): boolean {
  if (range === '*/*' || range === type) return true;
  if (range.endsWith('/*')) return type.startsWith(range.slice(0, -1));
  return false;
}
