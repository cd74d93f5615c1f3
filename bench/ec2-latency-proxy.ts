// A local EC2 endpoint with realistic latencies: an HTTP proxy in front of moto that forwards
// every request, holds each answer back for its Action's latency (bench/ec2-latencies.ts), and
// keeps NAT gateways and instances pending for their documented while after their create,
// which moto finishes at once (bench/ec2-pending-states.ts). Point a control plane's EC2
// endpoint at it; keep measuring moto itself (request counts, inventory) directly.
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { callSeconds, type Ec2Latencies } from './ec2-latencies';
import { PENDING_SHAPES, resourceStates, showPending } from './ec2-pending-states';

export interface Ec2LatencyProxy {
  /** Give this to the control plane as its EC2 endpoint. */
  endpoint: string;
  /** Query API calls answered so far: none means nobody was pointed at the proxy. */
  calls(): number;
  stop(): Promise<void>;
}

interface Ec2LatencyProxyOptions {
  /** moto's endpoint, e.g. http://127.0.0.1:4566. */
  upstream: string;
  latencies: Ec2Latencies;
  /** Milliseconds since the epoch; tests pass a clock of their own. */
  now?: () => number;
}

export async function startEc2LatencyProxy(options: Ec2LatencyProxyOptions): Promise<Ec2LatencyProxy> {
  const upstream = new URL(options.upstream);
  const now = options.now ?? Date.now;
  /** Until when each created resource shows pending, by id. */
  const pendingUntil = new Map<string, number>();
  let calls = 0;
  const server = createServer((incoming, outgoing) => {
    void (async () => {
      const body = await readAll(incoming);
      const action = actionOf(incoming.url ?? '/', incoming.headers, body);
      const answer = await forward(upstream, incoming, body);
      if (action) calls++;
      let text = answer.body.toString('utf8');
      const delayMs = action ? callSeconds(options.latencies, action) * 1000 : 0;
      if (action && answer.status < 300) {
        for (const shape of PENDING_SHAPES) {
          const pendingSeconds = options.latencies.pendingSeconds[shape.createAction];
          if (action === shape.createAction && pendingSeconds) {
            // From when the caller gets the answer, so that the model's sum (call + pending + the
            // read that sees it ready) is exactly the least a caller can wait.
            const until = now() + delayMs + pendingSeconds * 1000;
            for (const { id } of resourceStates(text, shape)) pendingUntil.set(id, until);
          }
          if (text.includes(`<${shape.idTag}>`)) text = showPending(text, shape, (id) => (pendingUntil.get(id) ?? 0) > now());
        }
      }
      if (delayMs > 0) await sleep(delayMs);
      const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(text)) };
      delete headers['transfer-encoding'];
      outgoing.writeHead(answer.status, headers);
      outgoing.end(text);
    })().catch((error: unknown) => {
      if (outgoing.headersSent) outgoing.destroy();
      else outgoing.writeHead(502, { 'content-type': 'text/plain' }).end(`EC2 latency proxy: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    calls: () => calls,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The Query API's Action, from the form body (POST, as the SDKs send it) or the query string. */
export function actionOf(url: string, headers: IncomingHttpHeaders, body: Buffer): string | undefined {
  const fromQuery = new URL(url, 'http://proxy').searchParams.get('Action');
  if (fromQuery) return fromQuery;
  if (!String(headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')) return undefined;
  return new URLSearchParams(body.toString('utf8')).get('Action') ?? undefined;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function forward(upstream: URL, incoming: IncomingMessage, body: Buffer): Promise<Answer> {
  // Uncompressed, so that the answer can be read and rewritten; the Host header stays the
  // caller's, which the request's signature covers.
  const headers = { ...incoming.headers, 'content-length': String(body.length) };
  delete headers['accept-encoding'];
  delete headers['transfer-encoding'];
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { hostname: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers },
      (answer) => {
        readAll(answer).then(
          (answerBody) => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: answerBody }),
          reject,
        );
      },
    );
    outgoing.once('error', reject);
    outgoing.end(body);
  });
}

async function readAll(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
