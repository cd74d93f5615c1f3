import { pino } from 'pino';

/** Structured JSON logs. Nothing secret is ever passed to a logger in this codebase. */
export function createLogger(component: string, level = process.env.LOG_LEVEL ?? 'info') {
  return pino({ name: component, level });
}
