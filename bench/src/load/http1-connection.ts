/**
 * One keep-alive HTTP/1.1 connection over TLS with one request in flight, framed by hand for the load generator:
 * a request goes out as one prepared buffer, and the response is only delimited (status line, `Content-Length`
 * or `chunked` framing) and counted, its body dropped unless the status was not the one expected. Written for the
 * job because a general client (node:https, undici) spends per request on what a load generator does not need:
 * header objects, body streams, agents and pools; this one costs a buffer search and a few integers per response.
 */
import { connect, type ConnectionOptions, type TLSSocket } from 'node:tls';

/** Where a connection goes: the address, the TLS settings (CA, client certificate) and a bearer token if any. */
export interface Http1Target {
  readonly host: string;
  readonly port: number;
  readonly tls: Pick<ConnectionOptions, 'ca' | 'cert' | 'key'>;
  readonly token?: string;
}

/** A response as the generator sees it: the status, and up to 1 KiB of the body when it was kept. */
export interface Http1Response {
  readonly status: number;
  readonly body?: string;
}

const headEnd = Buffer.from('\r\n\r\n');
const crlf = Buffer.from('\r\n');
/** How much of an unexpected response's body is kept for the report. */
const keptBodyBytes = 1024;

type State = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailer';

/** A keep-alive HTTP/1.1 connection. */
export class Http1Connection {
  private pending: Buffer | undefined;
  private state: State = 'head';
  private remaining = 0;
  private status = 0;
  private keep = false;
  private kept: Buffer[] = [];
  private keptSize = 0;
  private expected = 200;
  private onResponse: ((r: Http1Response) => void) | undefined;
  private failure: Error | undefined;

  private constructor(private readonly socket: TLSSocket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.take(chunk));
    socket.on('error', (e) => this.fail(e));
    socket.on('close', () => this.fail(new Error('the server closed the connection')));
  }

  /** Opens a connection (the TLS handshake done, HTTP/1.1 agreed by ALPN). */
  static open(target: Http1Target): Promise<Http1Connection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: target.host, port: target.port, ...target.tls, ALPNProtocols: ['http/1.1'] });
      socket.once('secureConnect', () => {
        socket.off('error', reject);
        resolve(new Http1Connection(socket));
      });
      socket.once('error', reject);
    });
  }

  /**
   * Sends one request (a whole HTTP/1.1 message) and calls `done` with its response; a response with another
   * status than `expected` keeps the start of its body.
   */
  send(request: Buffer, expected: number, done: (r: Http1Response) => void): void {
    if (this.failure !== undefined) {
      done({ status: 0, body: this.failure.message });
      return;
    }
    this.expected = expected;
    this.onResponse = done;
    this.socket.write(request);
  }

  /** Whether the connection has failed or was closed (by either side); it answers every request at once then. */
  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** Closes the connection. */
  close(): void {
    this.failure ??= new Error('closed');
    this.socket.destroy();
  }

  private fail(e: Error): void {
    this.failure ??= e;
    const done = this.onResponse;
    this.onResponse = undefined;
    done?.({ status: 0, body: e.message });
  }

  private take(chunk: Buffer): void {
    let data = this.pending === undefined ? chunk : Buffer.concat([this.pending, chunk]);
    this.pending = undefined;
    while (data.length > 0) {
      const used = this.step(data);
      if (used < 0) {
        this.pending = data;
        return;
      }
      data = data.subarray(used);
    }
  }

  /** Consumes what it can of `data` in the current state: the bytes used, or -1 when more are needed first. */
  private step(data: Buffer): number {
    switch (this.state) {
      case 'head': {
        const end = data.indexOf(headEnd);
        if (end < 0) return -1;
        this.status = (data[9]! - 48) * 100 + (data[10]! - 48) * 10 + (data[11]! - 48);
        this.keep = this.status !== this.expected;
        const head = data.toString('latin1', 0, end).toLowerCase();
        if (head.includes('\r\ntransfer-encoding: chunked')) {
          this.state = 'chunk-size';
        } else {
          const at = head.indexOf('\r\ncontent-length:');
          const eol = at < 0 ? -1 : head.indexOf('\r\n', at + 17);
          this.remaining = at < 0 ? 0 : Number.parseInt(head.slice(at + 17, eol < 0 ? undefined : eol), 10);
          this.state = 'length';
          if (!(this.remaining > 0)) this.finish();
        }
        return end + 4;
      }
      case 'length': {
        const n = Math.min(this.remaining, data.length);
        this.keepBody(data, n);
        this.remaining -= n;
        if (this.remaining === 0) this.finish();
        return n;
      }
      case 'chunk-size': {
        const end = data.indexOf(crlf);
        if (end < 0) return -1;
        this.remaining = Number.parseInt(data.toString('latin1', 0, end), 16);
        this.state = this.remaining > 0 ? 'chunk-data' : 'trailer';
        return end + 2;
      }
      case 'chunk-data': {
        const n = Math.min(this.remaining, data.length);
        this.keepBody(data, n);
        this.remaining -= n;
        if (this.remaining === 0) this.state = 'chunk-end';
        return n;
      }
      case 'chunk-end': {
        if (data.length < 2) return -1;
        this.state = 'chunk-size';
        return 2;
      }
      case 'trailer': {
        // Trailer fields (none are sent here) end with an empty line.
        const end = data.indexOf(crlf);
        if (end < 0) return -1;
        if (end === 0) this.finish();
        return end + 2;
      }
    }
  }

  private keepBody(data: Buffer, n: number): void {
    if (!this.keep || this.keptSize >= keptBodyBytes) return;
    const part = data.subarray(0, Math.min(n, keptBodyBytes - this.keptSize));
    this.kept.push(Buffer.from(part));
    this.keptSize += part.length;
  }

  private finish(): void {
    this.state = 'head';
    const done = this.onResponse;
    this.onResponse = undefined;
    const body = this.keep ? Buffer.concat(this.kept).toString('utf8') : undefined;
    this.kept = [];
    this.keptSize = 0;
    done?.(body === undefined ? { status: this.status } : { status: this.status, body });
  }
}
