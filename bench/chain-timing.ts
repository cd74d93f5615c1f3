// From what was measured (when each object was first seen Ready, and each workflow's history)
// to what the network scenario reports: create latencies, the limit they set along the heaviest
// chain, how the chain's time splits up, and the wake-up gap on every dependency edge. Pure.
import { heaviestChain, type NetworkGraph } from './network-graph';
import type { PassTrigger, ReconcileTimeline } from './workflow-timeline';

export interface EdgeFigures {
  target: string;
  dependent: string;
  /** From the target seen Ready to the dependent's createExternal scheduled. */
  gapSeconds: number;
  /** The target was the dependent's last dependency to turn Ready: this edge held it back. */
  last: boolean;
  /**
   * The pass that created the dependent: what started it, when (seconds after the target was
   * seen Ready; negative when it started before and found the target Ready on its way), and how
   * long it took from there to schedule the create (reading the object, observing, resolving).
   */
  creatingPass?: { startedBy: PassTrigger; startedAfterSeconds: number; secondsToCreate: number };
}

export interface ChainTiming {
  /** From createExternal scheduled to seen Ready, by Kind/name. */
  createLatencySeconds: Record<string, number>;
  /** Sum of create latencies along the heaviest chain; apply to all Ready cannot be less. */
  chainLimitSeconds: number;
  chain: string[];
  /**
   * The heaviest chain's last object Ready after the apply, split exactly into: the apply until
   * the chain's first object was seen on the API server (kubectl's part: it creates the files
   * in name order), from there until its create was scheduled (the first pass), the create
   * latencies (the limit), and the wake-up gaps between one object Ready and the next one's create.
   */
  chainTimeline: {
    toFirstObjectSeconds: number;
    firstPassSeconds: number;
    createLatenciesSeconds: number;
    wakeUpGapsSeconds: number;
    totalSeconds: number;
  };
  edges: EdgeFigures[];
  /** More than one createExternal scheduled for a resource: a failed or repeated create. */
  repeatedCreates: Record<string, number>;
}

/** When objects were seen on the API server and seen Ready (ms since the epoch), by Kind/name. */
interface SeenTimes {
  seenAt: ReadonlyMap<string, number>;
  readyAt: ReadonlyMap<string, number>;
}

export function chainTiming(
  graph: NetworkGraph,
  appliedAt: number,
  { seenAt, readyAt }: SeenTimes,
  timelines: ReadonlyMap<string, ReconcileTimeline>,
): ChainTiming {
  const created = (key: string) => timelines.get(key)?.createScheduledAt ?? NaN;
  const ready = (key: string) => readyAt.get(key) ?? NaN;
  const latency = (key: string) => (ready(key) - created(key)) / 1000;
  const { path, total } = heaviestChain(graph, (key) => latency(key) || 0);
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  return {
    createLatencySeconds: Object.fromEntries(graph.objects.map(({ key }) => [key, round(latency(key))])),
    chainLimitSeconds: round(total),
    chain: path,
    chainTimeline: {
      toFirstObjectSeconds: round(((seenAt.get(path[0]!) ?? NaN) - appliedAt) / 1000),
      firstPassSeconds: round((created(path[0]!) - (seenAt.get(path[0]!) ?? NaN)) / 1000),
      createLatenciesSeconds: round(sum(path.map(latency))),
      wakeUpGapsSeconds: round(sum(path.slice(1).map((key, i) => created(key) - ready(path[i]!))) / 1000),
      totalSeconds: round((ready(path.at(-1)!) - appliedAt) / 1000),
    },
    edges: edgeFigures(graph, readyAt, timelines),
    repeatedCreates: Object.fromEntries(
      [...timelines].filter(([, timeline]) => timeline.createsScheduled > 1).map(([key, timeline]) => [key, timeline.createsScheduled]),
    ),
  };
}

function edgeFigures(
  graph: NetworkGraph,
  readyAt: ReadonlyMap<string, number>,
  timelines: ReadonlyMap<string, ReconcileTimeline>,
): EdgeFigures[] {
  const lastReadyTarget = new Map<string, string>();
  for (const { target, dependent } of graph.edges) {
    const current = lastReadyTarget.get(dependent);
    if (current === undefined || (readyAt.get(target) ?? 0) > (readyAt.get(current) ?? 0)) lastReadyTarget.set(dependent, target);
  }
  return graph.edges.map(({ target, dependent }) => {
    const targetReady = readyAt.get(target) ?? NaN;
    const { createScheduledAt = NaN, createTrigger } = timelines.get(dependent) ?? {};
    return {
      target,
      dependent,
      gapSeconds: round((createScheduledAt - targetReady) / 1000),
      last: lastReadyTarget.get(dependent) === target,
      creatingPass: createTrigger && {
        startedBy: createTrigger.by,
        startedAfterSeconds: round((createTrigger.at - targetReady) / 1000),
        secondsToCreate: round((createScheduledAt - createTrigger.at) / 1000),
      },
    };
  });
}

const round = (value: number) => Math.round(value * 1000) / 1000;
