import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) a process has used so far; 0 when it is gone. With `reapedChildren`,
 * also the CPU of its children that ended and were waited for (cutime + cstime).
 */
export function processCpuSeconds(pid: number, options: { reapedChildren?: boolean } = {}): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may hold spaces and is in parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = Number(fields[11]) + Number(fields[12]);
    const children = options.reapedChildren ? Number(fields[13]) + Number(fields[14]) : 0;
    return (own + children) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds of every process whose command name is `name` (PostgreSQL's server and backends,
 * say) so far: each one's own time by pid, and what the ones that ended left in their parents'
 * counters of reaped children (a backend that ends moves its CPU into the postmaster's cutime).
 */
export function namedProcessesCpu(name: string): { byPid: Map<number, number>; ended: number } {
  const byPid = new Map<number, number>();
  let ended = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== name) continue;
      const pid = Number(entry);
      const own = processCpuSeconds(pid);
      byPid.set(pid, own);
      ended += processCpuSeconds(pid, { reapedChildren: true }) - own;
    } catch {
      // The process ended meanwhile.
    }
  }
  return { byPid, ended };
}

/** The total of namedProcessesCpu: it only grows while the processes' parent runs. */
export function namedProcessesCpuSeconds(name: string): number {
  const { byPid, ended } = namedProcessesCpu(name);
  return [...byPid.values()].reduce((sum, seconds) => sum + seconds, ended);
}

/**
 * Write system calls a process has made so far (`syscw` of /proc/<pid>/io, every thread); 0 when it
 * is gone. Each socket write wakes its reader, so writes per alert say how well work is batched.
 */
export function processWriteCalls(pid: number): number {
  try {
    return Number(/^syscw: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Where CPU time is measured: a name and how to read its seconds (and, for one process, its write calls) so far. */
export interface CpuSource {
  name: string;
  seconds(): number;
  writes?(): number;
}

/** One process of the system under test, by pid: its CPU seconds and its write calls. */
export function processCpu(name: string, pid: number): CpuSource {
  return { name, seconds: () => processCpuSeconds(pid), writes: () => processWriteCalls(pid) };
}

/** Several processes of one kind (every gateway instance, say), by pid: the sums of their CPU seconds and write calls. */
export function processesCpu(name: string, pids: readonly number[]): CpuSource {
  if (pids.length === 1) return processCpu(name, pids[0]);
  return {
    name,
    seconds: () => pids.reduce((sum, pid) => sum + processCpuSeconds(pid), 0),
    writes: () => pids.reduce((sum, pid) => sum + processWriteCalls(pid), 0),
  };
}

/** PostgreSQL's server and every backend (processes named postgres). */
export const postgresCpu: CpuSource = { name: 'postgresql', seconds: () => namedProcessesCpuSeconds('postgres') };

/** CPU seconds each source used, and write calls each source that counts them made, between start and the returned function's call. */
export function measureCpu(sources: readonly CpuSource[]): () => { seconds: Map<string, number>; writes: Map<string, number> } {
  const counted = sources.filter((source) => source.writes);
  const before = new Map(sources.map((source) => [source.name, source.seconds()]));
  const writesBefore = new Map(counted.map((source) => [source.name, source.writes!()]));
  return () => ({
    seconds: new Map(sources.map((source) => [source.name, source.seconds() - (before.get(source.name) ?? 0)])),
    writes: new Map(counted.map((source) => [source.name, source.writes!() - (writesBefore.get(source.name) ?? 0)])),
  });
}

/** The benchmark process itself (the load generator). */
export const clientCpu: CpuSource = {
  name: 'client',
  seconds: () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1e6;
  },
};

/** Seconds per name as microseconds per accepted alert. */
export function microsPerAlert(seconds: ReadonlyMap<string, number>, accepted: number): Map<string, number> {
  return new Map([...seconds].map(([name, value]) => [name, (value * 1e6) / Math.max(1, accepted)]));
}
