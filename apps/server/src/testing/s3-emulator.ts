import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An S3-compatible emulator for tests, after AWS's S3 REST API reference: PutObject, GetObject,
 * HeadObject and DeleteObject on path-style URLs (`/<bucket>/<key>`), errors as S3's XML
 * (`<Error><Code>NoSuchKey</Code>…`). A request must carry a SigV4 `Authorization` header naming
 * the expected access key id (the signature itself is not recomputed) and an `x-amz-content-sha256`
 * that matches the body when it is a hash. `failing` makes every request answer 500 InternalError;
 * `close()` takes the bucket down.
 */

export interface StoredObject {
  body: Buffer;
  contentType: string;
  etag: string;
  lastModified: Date;
}

export interface S3Emulator {
  /** `http://127.0.0.1:<port>`: the endpoint to configure. */
  url: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** bucket → key → object. */
  buckets: Map<string, Map<string, StoredObject>>;
  /** Every request as `METHOD /path`, in order. */
  requests: string[];
  /** While true every request answers 500 InternalError. */
  failing: boolean;
  close(): Promise<void>;
}

const ERRORS: Record<string, { status: number; message: string }> = {
  NoSuchKey: { status: 404, message: 'The specified key does not exist.' },
  NoSuchBucket: { status: 404, message: 'The specified bucket does not exist.' },
  AccessDenied: { status: 403, message: 'Access Denied' },
  InvalidAccessKeyId: { status: 403, message: 'The AWS Access Key Id you provided does not exist in our records.' },
  XAmzContentSHA256Mismatch: {
    status: 400,
    message: "The provided 'x-amz-content-sha256' header does not match what was computed.",
  },
  NotImplemented: { status: 501, message: 'A header you provided implies functionality that is not implemented.' },
  MethodNotAllowed: { status: 405, message: 'The specified method is not allowed against this resource.' },
  InternalError: { status: 500, message: 'We encountered an internal error. Please try again.' },
};

const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

function sendError(req: IncomingMessage, res: ServerResponse, code: keyof typeof ERRORS, resource: string): void {
  const { status, message } = ERRORS[code]!;
  const requestId = randomBytes(8).toString('hex').toUpperCase();
  res.writeHead(status, { 'content-type': 'application/xml', 'x-amz-request-id': requestId });
  // HEAD answers carry no body: the SDK reads the status alone.
  if (req.method === 'HEAD') return void res.end();
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message><Resource>${xmlEscape(resource)}</Resource><RequestId>${requestId}</RequestId></Error>`,
  );
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function startS3Emulator(
  opts: { buckets?: string[]; accessKeyId?: string; secretAccessKey?: string } = {},
): Promise<S3Emulator> {
  const emu: Omit<S3Emulator, 'url' | 'close'> = {
    accessKeyId: opts.accessKeyId ?? 'AKIAREMITTEST0000001',
    secretAccessKey: opts.secretAccessKey ?? randomBytes(20).toString('base64'),
    buckets: new Map((opts.buckets ?? ['remit-checks']).map((b) => [b, new Map()])),
    requests: [],
    failing: false,
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://s3.local');
    emu.requests.push(`${req.method} ${url.pathname}`);
    const body = await bodyOf(req);
    if (emu.failing) return sendError(req, res, 'InternalError', url.pathname);
    // SigV4: `AWS4-HMAC-SHA256 Credential=<key id>/<date>/<region>/s3/aws4_request, SignedHeaders=…, Signature=…`.
    const auth =
      /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/\d{8}\/[^/]+\/s3\/aws4_request, ?SignedHeaders=[^,]+, ?Signature=[0-9a-f]{64}$/.exec(
        req.headers.authorization ?? '',
      );
    if (!auth || !req.headers['x-amz-date']) return sendError(req, res, 'AccessDenied', url.pathname);
    if (auth[1] !== emu.accessKeyId) return sendError(req, res, 'InvalidAccessKeyId', url.pathname);
    const declared = String(req.headers['x-amz-content-sha256'] ?? '');
    if (declared.startsWith('STREAMING-')) return sendError(req, res, 'NotImplemented', url.pathname);
    if (/^[0-9a-f]{64}$/.test(declared) && createHash('sha256').update(body).digest('hex') !== declared) {
      return sendError(req, res, 'XAmzContentSHA256Mismatch', url.pathname);
    }

    const [, bucketName = '', ...rest] = url.pathname.split('/');
    const key = rest.map(decodeURIComponent).join('/');
    const bucket = emu.buckets.get(decodeURIComponent(bucketName));
    if (!bucket) return sendError(req, res, 'NoSuchBucket', url.pathname);
    if (key === '') return sendError(req, res, 'MethodNotAllowed', url.pathname);

    switch (req.method) {
      case 'PUT': {
        const etag = `"${createHash('md5').update(body).digest('hex')}"`;
        bucket.set(key, {
          body,
          contentType: req.headers['content-type'] ?? 'binary/octet-stream',
          etag,
          lastModified: new Date(),
        });
        res.writeHead(200, { etag });
        return void res.end();
      }
      case 'GET':
      case 'HEAD': {
        const o = bucket.get(key);
        if (!o) return sendError(req, res, 'NoSuchKey', url.pathname);
        res.writeHead(200, {
          'content-type': o.contentType,
          'content-length': o.body.length,
          etag: o.etag,
          'last-modified': o.lastModified.toUTCString(),
        });
        return void res.end(req.method === 'GET' ? o.body : undefined);
      }
      case 'DELETE':
        // S3 answers 204 whether or not the key existed.
        bucket.delete(key);
        res.writeHead(204);
        return void res.end();
      default:
        return sendError(req, res, 'MethodNotAllowed', url.pathname);
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => sendError(req, res, 'InternalError', req.url ?? '/'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return Object.assign(emu, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
}
