import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { EncryptionCodec, keyringOf } from './payload-codec';
import { decodeHistory } from './history-payloads';

describe('decodeHistory', () => {
  it('decrypts payloads wherever they sit, leaving plain ones and event ids as they were', async () => {
    const codec = new EncryptionCodec(keyringOf([randomBytes(32)]));
    const [input, result, summary] = (await codec.encode(
      ['input', 'result', 'summary'].map((v) => defaultPayloadConverter.toPayload(v)!),
    )) as Payload[];
    const eventIds = [new EventId(1), new EventId(5), new EventId(6)];
    const searchAttribute = defaultPayloadConverter.toPayload('True')!;
    const history = {
      events: [
        { eventId: eventIds[0], workflowExecutionStartedEventAttributes: { input: { payloads: [input] } } },
        {
          eventId: eventIds[1],
          userMetadata: { summary },
          activityTaskCompletedEventAttributes: { result: { payloads: [result] } },
        },
        {
          eventId: eventIds[2],
          upsertWorkflowSearchAttributesEventAttributes: { searchAttributes: { indexedFields: { Ready: searchAttribute } } },
        },
      ],
    };
    const decoded = await decodeHistory(history, codec);
    const value = (p: unknown) => defaultPayloadConverter.fromPayload(p as never);
    expect(value(decoded.events[0]!.workflowExecutionStartedEventAttributes!.input.payloads[0])).toBe('input');
    expect(value(decoded.events[1]!.activityTaskCompletedEventAttributes!.result.payloads[0])).toBe('result');
    expect(value(decoded.events[1]!.userMetadata!.summary)).toBe('summary');
    expect(decoded.events[2]!.upsertWorkflowSearchAttributesEventAttributes!.searchAttributes.indexedFields.Ready).toBe(searchAttribute);
    // The same objects, not copies: a real history's event ids are Longs, which a copy would flatten.
    expect(decoded.events.map((e) => e.eventId)).toEqual(eventIds);
    expect(decoded.events[1]!.eventId).toBe(eventIds[1]);
  });
});

class EventId {
  constructor(readonly value: number) {}
}
