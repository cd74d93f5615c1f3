// The heartbeat wrapper: heartbeats while an activity with a heartbeat timeout runs, stops when
// it ends however it ends, and leaves local activities and those without a timeout alone.
// Timers are faked, so nothing here depends on how busy the machine is.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { withHeartbeats } from './heartbeat';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** An activity that runs until the test lets it finish, succeed or fail. */
function controlled() {
  let finish!: (outcome: { value: string } | { error: Error }) => void;
  const outcome = new Promise<{ value: string } | { error: Error }>((resolve) => (finish = resolve));
  const activities = withHeartbeats(
    {
      async run(input: string): Promise<string> {
        const result = await outcome;
        if ('error' in result) throw result.error;
        return `${input}:${result.value}`;
      },
    },
    { intervalMs: 1_000 },
  );
  return { activities, finish };
}

function environment(info: ConstructorParameters<typeof MockActivityEnvironment>[0]) {
  // The failing case is expected: keep the SDK's "Activity failed" warning out of the output.
  const env = new MockActivityEnvironment(info, { logger: new DefaultLogger('ERROR') });
  let heartbeats = 0;
  env.on('heartbeat', () => (heartbeats += 1));
  return { env, heartbeats: () => heartbeats };
}

describe('withHeartbeats', () => {
  it('heartbeats every interval while the activity runs, and stops once it returns', async () => {
    const { env, heartbeats } = environment({ heartbeatTimeoutMs: 10_000 });
    const { activities, finish } = controlled();
    const running = env.run(activities.run, 'create');

    await vi.advanceTimersByTimeAsync(999);
    expect(heartbeats()).toBe(0); // a short activity sends none
    await vi.advanceTimersByTimeAsync(3_001);
    expect(heartbeats()).toBe(4);

    finish({ value: 'done' });
    expect(await running).toBe('create:done'); // arguments and result pass through
    await vi.advanceTimersByTimeAsync(10_000);
    expect(heartbeats()).toBe(4);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stops heartbeating when the activity fails, and passes the failure on', async () => {
    const { env, heartbeats } = environment({ heartbeatTimeoutMs: 10_000 });
    const { activities, finish } = controlled();
    const running = env.run(activities.run, 'create');
    await vi.advanceTimersByTimeAsync(2_000);

    finish({ error: new Error('InvalidParameterValue') });
    await expect(running).rejects.toThrow('InvalidParameterValue');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(heartbeats()).toBe(2);
    expect(vi.getTimerCount()).toBe(0);
  });

  it.each([
    ['a local activity', { isLocal: true, heartbeatTimeoutMs: 10_000 }],
    ['an activity scheduled without a heartbeat timeout', { heartbeatTimeoutMs: undefined }],
  ])('leaves %s alone', async (_, info) => {
    const { env, heartbeats } = environment(info);
    const { activities, finish } = controlled();
    const running = env.run(activities.run, 'observe');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(vi.getTimerCount()).toBe(0);

    finish({ value: 'seen' });
    expect(await running).toBe('observe:seen');
    expect(heartbeats()).toBe(0);
  });

  it('wraps every activity under its own name', () => {
    const activities = withHeartbeats({ async a() {}, async b() {} });
    expect(Object.keys(activities)).toEqual(['a', 'b']);
  });
});
