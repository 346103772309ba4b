/**
 * Encoding of response bodies: JSON (with a trailing newline, like Go's json.Encoder; two-space indent for
 * `pretty`) and YAML (as sigs.k8s.io/yaml prints JSON documents).
 */
import { stringify as yamlStringify } from 'yaml';
import type { ResponseMediaType } from './negotiation.js';

const bigintMarker = '\u0000bigint:';

/**
 * JSON text of a value. Integers beyond 2^53 decoded from YAML stay `bigint` to keep them exact; they are written
 * as plain JSON numbers.
 */
export function encodeJson(value: unknown, indent?: number): string {
  let sawBigint = false;
  const text = JSON.stringify(
    value,
    (_key, v: unknown) => {
      if (typeof v === 'bigint') {
        sawBigint = true;
        return `${bigintMarker}${v.toString()}`;
      }
      return v;
    },
    indent,
  );
  if (!sawBigint) return text;
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1');
}

/** The body of a response in a media type. */
export function encodeBody(value: unknown, mediaType: ResponseMediaType, pretty: boolean): string {
  if (mediaType === 'application/yaml') {
    // Round-trip through JSON first so the YAML holds exactly what the JSON form would (no undefined, toJSON applied).
    return yamlStringify(JSON.parse(encodeJson(value)) as unknown, { lineWidth: 0, aliasDuplicateObjects: false, indentSeq: false });
  }
  return encodeJson(value, pretty ? 2 : undefined) + '\n';
}
