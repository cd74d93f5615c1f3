// One short line per step, so `npm run up` shows what it is waiting for.
export function progress(message: string): void {
  console.log(`chronoplane: ${message}`);
}
