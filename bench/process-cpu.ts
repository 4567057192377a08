import { readFileSync } from 'node:fs';

/** A process's CPU time so far in ms, user and system (from /proc: clock ticks of 10 ms; Linux only). */
export function processCpuMs(pid: number): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
}
