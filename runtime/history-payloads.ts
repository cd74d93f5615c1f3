// A fetched workflow history holds payloads as the codec left them: encrypted. Tests and
// benchmarks that read inputs, results or activity summaries out of history decode them here
// first, the way the Temporal UI does through the codec endpoint.
import type { PayloadCodec } from '@temporalio/common';
import { isEncrypted } from './payload-codec';

type Payload = Parameters<typeof isEncrypted>[0];

/**
 * Decodes, in place, every encrypted payload anywhere in `history`, and returns it. In place,
 * because the history's messages carry types (Long event ids) a copy would lose.
 */
export async function decodeHistory<H extends object>(history: H, codec: PayloadCodec): Promise<H> {
  const found: { holder: Record<string, unknown>; key: string; payload: Payload }[] = [];
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return;
    for (const [key, child] of Object.entries(value)) {
      if (isPayload(child) && isEncrypted(child)) found.push({ holder: value as Record<string, unknown>, key, payload: child });
      else visit(child);
    }
  };
  visit(history);
  const decoded = await codec.decode(found.map((f) => f.payload));
  found.forEach((f, i) => (f.holder[f.key] = decoded[i]));
  return history;
}

function isPayload(value: unknown): value is Payload {
  if (value === null || typeof value !== 'object') return false;
  const metadata = (value as { metadata?: unknown }).metadata;
  return metadata !== null && typeof metadata === 'object' && (metadata as Record<string, unknown>).encoding instanceof Uint8Array;
}
