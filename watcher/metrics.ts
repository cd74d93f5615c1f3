// Prometheus metrics for the watcher, served on /metrics.
import { createServer, type Server } from 'node:http';
import { Counter, Registry, Summary, collectDefaultMetrics } from 'prom-client';

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
    help: 'Signals sent to reconcile workflows.',
    labelNames: ['kind', 'event'],
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

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  serve(port: number): Server {
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
    return server.listen(port, '127.0.0.1');
  }
}
