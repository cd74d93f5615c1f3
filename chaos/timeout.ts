/** `promise`, or a rejection after `ms`: a server that was just killed and restarted may not answer at all. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms).unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
