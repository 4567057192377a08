import { readdirSync, readFileSync } from 'node:fs';

/** A process's CPU time so far in ms, user and system (from /proc: clock ticks of 10 ms; Linux only). */
export function processCpuMs(pid: number): { user: number; system: number } {
  return statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/** A process's CPU time so far in ms, user and system together (one read of /proc). */
export function processCpuTotalMs(pid: number): number {
  const { user, system } = processCpuMs(pid);
  return user + system;
}

/** One thread's CPU time so far in ms (`tid`: the main thread's is the pid). */
export function threadCpuMs(pid: number, tid: number): { user: number; system: number } {
  return statCpuMs(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'));
}

/** Each thread's CPU time so far in ms (user + system), by thread id; threads that end meanwhile are left out. */
export function threadsCpuMs(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const { user, system } = threadCpuMs(pid, Number(tid));
      out.set(Number(tid), user + system);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

/** User and system CPU (ms) in a `/proc/<pid>/stat` line (after the command name, which may hold spaces). */
function statCpuMs(stat: string): { user: number; system: number; children: number } {
  const fields = stat.split(') ')[1]!.split(' ');
  return {
    user: Number(fields[11]) * 10,
    system: Number(fields[12]) * 10,
    children: (Number(fields[13]) + Number(fields[14])) * 10,
  };
}

/** This process's CPU so far (ms, user + system), and its children's that have ended (a wrk run). */
export function selfCpuMs(): number {
  const { user, system, children } = statCpuMs(readFileSync('/proc/self/stat', 'utf8'));
  return user + system + children;
}

/** CPU time so far (ms, user + system) of every process named `postgres` (the server's backends, the bench's). */
export function postgresCpuMs(): number {
  let ms = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const { user, system } = statCpuMs(stat);
      ms += user + system;
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return ms;
}

/** The whole machine's CPU time so far (ms): busy (all but idle and iowait) and idle, over all cores. */
export function machineCpuMs(): { busy: number; idle: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = f[3]! + f[4]!;
  const all = f.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: (all - idle) * 10, idle: idle * 10 };
}
