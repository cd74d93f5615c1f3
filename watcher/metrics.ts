// Prometheus metrics for the watcher, served on /metrics.
import { createServer, type Server } from 'node:http';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export class WatcherMetrics {
  readonly registry = new Registry();
  readonly eventToSignal = new Histogram({
    name: 'chronoplane_watch_event_to_signal_seconds',
    help: 'Time from a watch event reaching the watcher to Temporal accepting its signal.',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly signals = new Counter({ name: 'chronoplane_signals_total', help: 'Signals sent to reconcile workflows.', labelNames: ['kind', 'event'], registers: [this.registry] });
  readonly signalErrors = new Counter({ name: 'chronoplane_signal_errors_total', help: 'Signals that failed and were retried.', labelNames: ['kind'], registers: [this.registry] });
  readonly watchRestarts = new Counter({ name: 'chronoplane_watch_restarts_total', help: 'Informer restarts after errors.', labelNames: ['kind'], registers: [this.registry] });

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
