// `npx chronoplane <command>` (see commands.ts). Exit status 2 for a mistake on the command
// line or an object that is not there, 1 for anything else.
import { isUsageMistake, runCommand } from './commands';

runCommand(process.argv.slice(2)).then(
  (output) => process.stdout.write(output),
  (error: unknown) => {
    const usage = isUsageMistake(error);
    process.stderr.write(
      `chronoplane: ${usage ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = usage ? 2 : 1;
  },
);
