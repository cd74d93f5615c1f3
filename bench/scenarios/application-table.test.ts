import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  costsBetween,
  formatCosts,
  formatSpread,
  formatStates,
  printApplicationTable,
  spread,
  summarizeCosts,
  type ApplicationScaleResult,
  type PhaseCost,
} from './application-table';

describe('spread', () => {
  it('gives p50, p95 and max', () => {
    const s = spread(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(s).toEqual({ count: 20, p50Seconds: 10, p95Seconds: 19, maxSeconds: 20 });
    expect(formatSpread(s)).toBe('10.00 s / 19.00 s / 20.00 s (20)');
  });

  it('has no figures without times', () => {
    expect(spread([]).count).toBe(0);
    expect(Number.isNaN(spread([]).maxSeconds)).toBe(true);
    expect(formatSpread(spread([]))).toBe('—');
  });
});

describe('workflow costs', () => {
  const cost = (events: number, historyBytes: number, passes: number) => ({ events, historyBytes, passes });

  it('summarizes mean and max', () => {
    const costs = summarizeCosts([cost(10, 2048, 2), cost(20, 4096, 4)]);
    expect(costs).toEqual({
      workflows: 2,
      events: { mean: 15, max: 20 },
      historyBytes: { mean: 3072, max: 4096 },
      passes: { mean: 3, max: 4 },
    });
    expect(formatCosts(costs)).toBe('15.0 events (max 20), 3.0 KiB (max 4.0), 3.0 passes');
  });

  it('takes what each workflow added, leaving out one that continued as new', () => {
    const between = costsBetween([cost(10, 1000, 2), cost(50, 9000, 9)], [cost(16, 1500, 3), cost(4, 800, 1)]);
    expect(between).toMatchObject({ workflows: 1, events: { mean: 6, max: 6 }, passes: { mean: 1 }, continuedAsNew: 1 });
    expect(formatCosts(between)).toContain('1 continued as new, left out');
  });
});

describe('formatStates', () => {
  it('lists the states in the order seen', () => {
    expect(formatStates({ Scheduled: 0.41, PartiallySubmitted: 1.2, Submitted: 5.3 })).toBe(
      'Scheduled 0.41 s → PartiallySubmitted 1.20 s → Submitted 5.30 s',
    );
    expect(formatStates({})).toBe('none seen');
  });
});

describe('printApplicationTable', () => {
  afterEach(() => vi.restoreAllMocks());

  const cost: PhaseCost = { cpuSecondsByProcess: { worker: 3.2 }, workerSteps: {}, rssMiB: { worker: { peak: 300, last: 280 } } };

  it('prints a run that timed out in the update without failing', () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    const result: ApplicationScaleResult = {
      date: '2026-11-22T00:00:00.000Z',
      templates: 3,
      kinds: { ConfigMap: 1, Service: 1, Deployment: 1 },
      targetNamespace: 'default',
      namespaceTemplate: false,
      machine: { cores: 2, node: 'v22' },
      loadAverage: { atStart: [1, 1, 1], atEnd: [1, 1, 1] },
      apply: {
        ...cost,
        createSeconds: 0.05,
        submittedSeconds: 4.2,
        appStates: { Scheduled: 0.3, Submitted: 4.2 },
        app: { state: 'Submitted', desiredResources: 3, submittedResources: 3 },
        resourcesCreated: spread([0.5, 0.5, 0.6]),
        resourcesSubmitted: spread([2, 3, 4]),
        targetObjects: 3,
      },
      update: {
        ...cost,
        patchSeconds: 0.04,
        targetsChanged: 2,
        targetChanges: spread([1, 1.25]),
        appStates: {},
        resourcesResubmitted: spread([]),
      },
      error: 'something broke',
    };
    printApplicationTable(result);
    const out = lines.join('\n');
    expect(out).toContain('apply to Submitted 3/3');
    expect(out).toContain('4.20 s');
    expect(out).toContain('not in time (2 of 3 changed in the target)');
    expect(out).toContain('FAILED: something broke');
  });
});
