/**
 * PEM decoding with Go's encoding/pem semantics, which kube's certificate validation relies on: blocks are found
 * anywhere in the text (explanatory text around them is skipped, RFC 7468 §5.2), a block may carry `Key: value`
 * headers before its base64 body, and a block whose body is not base64 is not a block. Hand-written: Node has no PEM
 * reader, and the PEM helpers of the X.509 libraries take the first block or throw, not Go's walk over the text.
 */

/** One decoded PEM block. */
export interface PemBlock {
  /** The label after `BEGIN` (`CERTIFICATE`, `CERTIFICATE REQUEST`). */
  readonly type: string;
  /** Headers before the body (`Proc-Type: 4,ENCRYPTED`), in order. */
  readonly headers: readonly (readonly [string, string])[];
  readonly bytes: Buffer;
}

const blockRe = /-----BEGIN ([^\r\n-]*)-----\r?\n([\s\S]*?)-----END \1-----/g;
const base64Body = /^[A-Za-z0-9+/=\s]*$/;

/** Decodes one block's inner text (headers, blank line, base64), or undefined when it is not valid PEM. */
function decodeInner(type: string, inner: string): PemBlock | undefined {
  const lines = inner.split(/\r?\n/);
  const headers: [string, string][] = [];
  let i = 0;
  if ((lines[0] ?? '').includes(':')) {
    for (; i < lines.length && lines[i] !== ''; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      if (colon < 0) return undefined;
      headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
    }
    i++;
  }
  const body = lines.slice(i).join('');
  if (!base64Body.test(body)) return undefined;
  const compact = body.replace(/\s+/g, '');
  if (compact.length % 4 !== 0) return undefined;
  return { type, headers, bytes: Buffer.from(compact, 'base64') };
}

/** Every well-formed PEM block of `text`, in order; text between blocks is ignored. */
export function decodePemBlocks(text: string): PemBlock[] {
  const out: PemBlock[] = [];
  for (const m of text.matchAll(blockRe)) {
    const block = decodeInner(m[1]!, m[2]!);
    if (block !== undefined) out.push(block);
  }
  return out;
}

/** PEM text of DER bytes, 64 characters a line (Go's pem.EncodeToMemory). */
export function encodePem(type: string, der: Uint8Array): string {
  const b64 = Buffer.from(der).toString('base64');
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${type}-----\n${lines.join('\n')}${lines.length > 0 ? '\n' : ''}-----END ${type}-----\n`;
}
