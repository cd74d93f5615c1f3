// Prometheus metrics for the watcher, served on /metrics.
import { createServer, type Server } from 'node:http';
import { Counter, Gauge, Registry, Summary, collectDefaultMetrics } from 'prom-client';
import { ResourceStatuses } from './resource-statuses';

export class WatcherMetrics {
  readonly registry = new Registry();
  readonly eventToSignal = new Summary({
    name: 'chronoplane_watch_event_to_signal_seconds',
    help: 'Time from a watch event reaching the watcher to Temporal accepting its signal.',
    percentiles: [0.5, 0.9, 0.95, 0.99],
    maxAgeSeconds: 600,
    ageBuckets: 5,
    registers: [this.registry],
  });
  readonly signals = new Counter({
    name: 'chronoplane_signals_total',
    help: 'Watch events delivered to reconcile workflows: signals, and the eager starts of chronoplane_eager_workflow_starts_total.',
    labelNames: ['kind', 'event'],
    registers: [this.registry],
  });
  readonly eagerStarts = new Counter({
    name: 'chronoplane_eager_workflow_starts_total',
    help: 'Workflows the watcher started itself for objects it saw first (embedded in the worker): eagerly="true" when Temporal handed the first workflow task back in its answer, "false" when it went through the task queue (no free slot).',
    labelNames: ['kind', 'eagerly'],
    registers: [this.registry],
  });
  readonly signalErrors = new Counter({
    name: 'chronoplane_signal_errors_total',
    help: 'Signals that failed: retried, or dropped when permanent="true" (Temporal refused the request as written).',
    labelNames: ['kind', 'permanent'],
    registers: [this.registry],
  });
  readonly watchRestarts = new Counter({
    name: 'chronoplane_watch_restarts_total',
    help: 'Informer restarts after errors.',
    labelNames: ['kind'],
    registers: [this.registry],
  });

  readonly leader = new Gauge({
    name: 'chronoplane_watcher_leader',
    help: 'Whether this watcher holds the leader Lease and signals (1), or follows (0). Always 1 without leader election.',
    registers: [this.registry],
  });
  readonly leadershipTransitions = new Counter({
    name: 'chronoplane_watcher_leadership_transitions_total',
    help: 'Times this watcher became the leader (change="acquired") or stopped being it (change="lost").',
    labelNames: ['change'],
    registers: [this.registry],
  });

  /** Every managed resource the watcher hears of, by kind, Ready and Synced. */
  readonly resourceStatuses = new ResourceStatuses();
  readonly managedResources: Gauge = new Gauge({
    name: 'chronoplane_managed_resources',
    help: 'Managed resources by kind and by the status of their Ready and Synced conditions, as this watcher last heard them.',
    labelNames: ['kind', 'ready', 'synced'],
    registers: [this.registry],
    collect: () => {
      this.managedResources.reset();
      for (const { kind, ready, synced, count } of this.resourceStatuses.counts())
        this.managedResources.set({ kind, ready, synced }, count);
    },
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /**
   * Serves /metrics and /healthz. A port already taken (a second embedded watcher on one host)
   * is logged by `onError` and leaves the process running: metrics are not worth a crash.
   */
  serve(port: number, host = '127.0.0.1', onError: (error: Error) => void = () => undefined): Server {
    const server = createServer(async (req, res) => {
      if (req.url === '/metrics') {
        res.setHeader('Content-Type', this.registry.contentType);
        res.end(await this.registry.metrics());
      } else if (req.url === '/healthz') {
        res.end('ok');
      } else {
        res.statusCode = 404;
        res.end();
      }
    });
    server.on('error', onError);
    return server.listen(port, host);
  }
}
