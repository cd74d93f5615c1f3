// Entry point of the codec endpoint for the Temporal UI (see codec-server.ts): the same keys as
// the worker, on 127.0.0.1 unless told otherwise. `npm run up` starts it beside the worker.
import { EncryptionCodec } from '#runtime/payload-codec';
import { payloadKeysFromEnv } from '#runtime/payload-keys';
import { numberFrom } from '#runtime/config';
import { createLogger } from '#runtime/logger';
import { createCodecServer } from './codec-server';

const logger = createLogger('codec-server', process.env.LOG_LEVEL ?? 'info');
const host = process.env.CHRONOPLANE_CODEC_HOST || '127.0.0.1';
const port = numberFrom(process.env.CHRONOPLANE_CODEC_PORT, 8234);
const allowedOrigins = (process.env.CHRONOPLANE_CODEC_ALLOWED_ORIGINS || 'http://127.0.0.1:8233,http://localhost:8233')
  .split(',')
  .map((origin) => origin.trim())
  .filter((origin) => origin !== '');
const token = process.env.CHRONOPLANE_CODEC_TOKEN || undefined;

const server = createCodecServer(new EncryptionCodec(payloadKeysFromEnv()), { allowedOrigins, token });
server.listen(port, host, () => {
  logger.info({ url: `http://${host}:${port}`, allowedOrigins, tokenRequired: token !== undefined }, 'codec server listening');
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
