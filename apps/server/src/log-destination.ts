import pino from 'pino';

/**
 * The server's log destination (stdout by default): the lines of one turn of the event loop are
 * written together, in one write at `setImmediate`, not one write per line. At info level every
 * request logs two lines, and writing each on its own (pino's default, an fs.write through the
 * thread pool) cost server time under load (docs/benchmarks.md). Written synchronously (sonic-boom:
 * partial writes and EAGAIN handled, EPIPE ends logging), so nothing is in flight when the process
 * exits; what the last turn logged is written at 'exit' (process.exit, an uncaught error). An idle
 * server's line goes out at the end of the turn that logged it.
 */
export function batchedLog(fd = 1): { write(line: string): void } {
  const dest = pino.destination({ fd, sync: true });
  let pending = '';
  const flush = () => {
    const out = pending;
    pending = '';
    if (out) dest.write(out);
  };
  process.on('exit', flush);
  return {
    write(line: string) {
      if (!pending) setImmediate(flush);
      pending += line;
    },
  };
}
