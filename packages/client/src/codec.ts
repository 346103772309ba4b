/**
 * Bodies in the media types the client speaks: JSON (the default) and YAML (`application/yaml`), which
 * kube-apiserver accepts and serves for every resource. YAML is read as kube-apiserver reads it (YAML 1.1 scalars,
 * large integers exact) and written plainly.
 */
import { parse, stringify } from 'yaml';
import { fail, ok, type Result } from '@svc-apiserver/api';

/** A body encoding. */
export type Encoding = 'json' | 'yaml';

/** The media type of each encoding. */
export const encodingMediaTypes: Readonly<Record<Encoding, string>> = {
  json: 'application/json',
  yaml: 'application/yaml',
};

/** Writes a value in an encoding. */
export function encodeBody(value: unknown, encoding: Encoding): string {
  // YAML 1.1 quoting, so `yes`, `on` or `0644` stay strings for a server that reads YAML 1.1
  return encoding === 'yaml' ? stringify(value, { version: '1.1' }) : JSON.stringify(value);
}

/** Reads a body by its `content-type` (JSON when absent). */
export function decodeBody(body: Buffer, contentType: string | undefined): Result<unknown, string> {
  const type = (contentType ?? 'application/json').split(';')[0]?.trim().toLowerCase() ?? '';
  const text = body.toString('utf8');
  if (type === 'application/yaml' || type === 'application/x-yaml' || type === 'text/yaml') {
    try {
      return ok(parse(text, { version: '1.1', intAsBigInt: false }));
    } catch (e) {
      return fail(`the server returned YAML that does not parse: ${(e as Error).message}`);
    }
  }
  if (type !== 'application/json' && !type.endsWith('+json') && type !== '') {
    return fail(`the server returned a body of media type ${type}, which this client does not read`);
  }
  try {
    return ok(JSON.parse(text));
  } catch (e) {
    return fail(`the server returned a body that is not JSON: ${(e as Error).message}`);
  }
}
