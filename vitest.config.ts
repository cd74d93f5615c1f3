import { defineConfig } from 'vitest/config';

// Two projects: `unit` needs nothing running; `integration` starts real servers once per run
// (kube-apiserver + etcd, the Temporal dev server, moto) and shares them between files.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['**/*.test.ts'],
          exclude: ['**/node_modules/**', 'test/integration/**', 'test/stack/**', 'test/bad-input/**', '**/*.integration.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: [
            'test/integration/**/*.test.ts',
            'test/stack/**/*.test.ts',
            'providers/**/*.integration.test.ts',
            'bench/**/*.integration.test.ts',
            'test/bad-input/**/*.test.ts',
          ],
          globalSetup: ['test/integration/global-setup.ts'],
          // Files share one API server, one Temporal and one moto; run them one at a time so a
          // 2-core machine is not oversubscribed and timings stay meaningful.
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
