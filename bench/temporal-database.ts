// Where Temporal's PostgreSQL spends its statement time, read from pg_stat_statements: visibility
// (the executions_visibility table, which Temporal's schema gives dozens of indexes and which
// every workflow start, search-attribute upsert and close writes), history (history_node and
// history_tree), and the rest (mutable state, tasks, shards). The CPU figures say how much the
// database costs; this says what for.
import type { PostgresServer } from '#stack/postgres';

/** Cumulative statement time since the server started, by what the statements touch. */
export interface StatementTimes {
  visibilitySeconds: number;
  /** INSERT, UPDATE and DELETE statements on executions_visibility. */
  visibilityWrites: number;
  historySeconds: number;
  otherSeconds: number;
}

/** The database pg_stat_statements' view is created in; it reports on every database. */
const STATS_DATABASE = 'temporal';

/** Creates the view; the server must have been started with `statementStats`. */
export async function enableStatementTimes(postgres: PostgresServer): Promise<void> {
  await postgres.query(STATS_DATABASE, 'CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
}

export async function statementTimes(postgres: PostgresServer): Promise<StatementTimes> {
  const [row] = await postgres.query(
    STATS_DATABASE,
    `SELECT
       coalesce(sum(total_exec_time) FILTER (WHERE query ILIKE '%executions_visibility%'), 0),
       coalesce(sum(calls) FILTER (WHERE query ILIKE '%executions_visibility%' AND query ~* '^\\s*(INSERT|UPDATE|DELETE)'), 0),
       coalesce(sum(total_exec_time) FILTER (WHERE query ~* 'history_(node|tree)'), 0),
       coalesce(sum(total_exec_time) FILTER (WHERE query NOT ILIKE '%executions_visibility%' AND query !~* 'history_(node|tree)'), 0)
     FROM pg_stat_statements`,
  );
  const [visibilityMs, visibilityWrites, historyMs, otherMs] = (row ?? []).map(Number);
  return {
    visibilitySeconds: (visibilityMs ?? NaN) / 1000,
    visibilityWrites: visibilityWrites ?? NaN,
    historySeconds: (historyMs ?? NaN) / 1000,
    otherSeconds: (otherMs ?? NaN) / 1000,
  };
}

/** What a phase added, rounded for a table. */
export function statementTimesBetween(before: StatementTimes, after: StatementTimes): StatementTimes {
  const seconds = (key: 'visibilitySeconds' | 'historySeconds' | 'otherSeconds') => Math.round((after[key] - before[key]) * 100) / 100;
  return {
    visibilitySeconds: seconds('visibilitySeconds'),
    visibilityWrites: after.visibilityWrites - before.visibilityWrites,
    historySeconds: seconds('historySeconds'),
    otherSeconds: seconds('otherSeconds'),
  };
}

/** "visibility 1.93 s (2,014 writes, 2.0 per resource), history 0.31 s, the rest 1.2 s". */
export function formatStatementTimes(times: StatementTimes, resources?: number): string {
  const perResource = resources ? `, ${(times.visibilityWrites / resources).toFixed(1)} per resource` : '';
  return (
    `visibility ${times.visibilitySeconds} s (${times.visibilityWrites.toLocaleString('en-US')} writes${perResource}), ` +
    `history ${times.historySeconds} s, the rest ${times.otherSeconds} s`
  );
}
