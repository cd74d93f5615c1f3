// Temporal's remote codec protocol over HTTP, so the Temporal UI (and `temporal workflow show
// --codec-endpoint`) can show decoded payloads: POST …/decode and …/encode with a Payloads
// message as protobuf JSON, answered in kind. Whoever can reach this endpoint can read every
// payload, so it listens on 127.0.0.1 by default and can demand a bearer token.
//
// The UI calls it from the browser, hence CORS for the UI's origin. A browser sends no
// Authorization header on a CORS preflight, so preflights are answered without the token.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual, createHash } from 'node:crypto';
import type { PayloadCodec } from '@temporalio/common';
import { JSONToPayload, payloadToJSON, type JSONPayload } from '@temporalio/common/lib/proto-utils';

interface CodecServerOptions {
  /** Browser origins allowed to call it: the Temporal UI's, such as http://127.0.0.1:8233. */
  allowedOrigins: readonly string[];
  /** When set, /encode and /decode require `Authorization: Bearer <token>`. */
  token?: string;
}

/** Large enough for a page of history's payloads; Temporal limits one payload to 2 MiB. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

export function createCodecServer(codec: PayloadCodec, options: CodecServerOptions): Server {
  return createServer((request, response) => {
    handle(codec, options, request, response).catch((error: unknown) => {
      reply(response, 500, { message: error instanceof Error ? error.message : String(error) });
    });
  });
}

async function handle(codec: PayloadCodec, options: CodecServerOptions, request: IncomingMessage, response: ServerResponse) {
  allowOrigin(options, request, response);
  if (request.method === 'OPTIONS') return reply(response, 204);
  // The protocol looks only at the last path segment, so the codec can be mounted anywhere.
  const operation = new URL(request.url ?? '/', 'http://codec').pathname.split('/').pop();
  if (operation !== 'encode' && operation !== 'decode') return reply(response, 404, { message: 'POST …/encode or …/decode' });
  if (request.method !== 'POST') return reply(response, 405, { message: 'POST only' });
  if (options.token !== undefined && !bearerMatches(request.headers.authorization, options.token)) {
    return reply(response, 401, { message: 'a bearer token is required' });
  }
  let payloads;
  try {
    const body = JSON.parse(await readBody(request)) as { payloads?: JSONPayload[] };
    payloads = (body.payloads ?? []).map(JSONToPayload);
  } catch (error) {
    return reply(response, 400, { message: `not a Payloads message: ${error instanceof Error ? error.message : String(error)}` });
  }
  try {
    const done = operation === 'encode' ? await codec.encode(payloads) : await codec.decode(payloads);
    return reply(response, 200, { payloads: done.map(payloadToJSON) });
  } catch (error) {
    // An unknown key id or a tampered payload: the codec's message says which.
    return reply(response, 422, { message: error instanceof Error ? error.message : String(error) });
  }
}

function allowOrigin(options: CodecServerOptions, request: IncomingMessage, response: ServerResponse): void {
  const origin = request.headers.origin;
  if (origin === undefined || !options.allowedOrigins.includes(origin)) return;
  response.setHeader('Access-Control-Allow-Origin', origin);
  response.setHeader('Vary', 'Origin');
  response.setHeader('Access-Control-Allow-Credentials', 'true');
  response.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
  response.setHeader('Access-Control-Allow-Headers', 'Content-Type, X-Namespace, Authorization');
}

/** Compared in constant time, through digests so differing lengths reveal nothing either. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '';
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(token));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error(`the body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function reply(response: ServerResponse, status: number, body?: object): void {
  if (body === undefined) {
    response.writeHead(status).end();
    return;
  }
  response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}
