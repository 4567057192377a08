// The bench's stand-in for a merchant's webhook endpoint, in a process of its own (a merchant's
// receiver never shares the dispatcher's CPU). Prints `listening <port>` once, then a line
// `<webhook-id> <arrival>` per request, written in batches (one write per turn of the event loop)
// so that reporting stays cheap. Arrival: process.hrtime in ms (CLOCK_MONOTONIC, one clock for
// every process on Linux, so the bench compares it with its own commit times). A line `clock`
// on stdin is answered with `clock <now>` (the bench checks the clocks agree).
import { createServer } from 'node:http';

const now = () => Number(process.hrtime.bigint()) / 1e6;
let pending = '';
const report = (line) => {
  if (!pending) setImmediate(() => (process.stdout.write(pending), (pending = '')));
  pending += line + '\n';
};
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    report(`${req.headers['webhook-id']} ${now()}`);
    res.writeHead(200).end();
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  for (const line of d.split('\n')) if (line === 'clock') report(`clock ${now()}`);
});
process.stdin.on('end', () => process.exit(0));
