// The scalars of TensorBoard event files as an HTML page, without TensorBoard:
//   node --import tsx apps/bench/scripts/tensorboardView.ts --logdir results/shakespeare/tensorboard --out view.html
// (python3 reads the files: scripts/tensorboardRead.py; the page: src/tracking/tensorboard/eventsView.ts).
import { writeFileSync } from 'node:fs';
import { parseScriptArgs } from '../../../tools/scriptArgs.js';
import { formatError } from '../src/benchError.js';
import { eventsViewHtml, readLogdir } from '../src/tracking/tensorboard/eventsView.js';

const DEFAULT_TAGS = 'train/loss,val/loss,val/perplexity,val/accuracy,lr,grad_norm';

const args = parseScriptArgs('tensorboardView.ts --logdir DIR --out FILE [--tags a,b,c]', {
  logdir: 'string',
  out: 'string',
  tags: 'string',
});
if (args.logdir === undefined || args.out === undefined) {
  process.stderr.write('--logdir and --out are required\n');
  process.exit(2);
}
try {
  const runs = readLogdir(args.logdir);
  writeFileSync(args.out, await eventsViewHtml(runs, (args.tags ?? DEFAULT_TAGS).split(',')));
  process.stdout.write(`${args.out}: ${runs.size} runs\n`);
} catch (error) {
  process.stderr.write(`${formatError(error)}\n`);
  process.exit(1);
}
