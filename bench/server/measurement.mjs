// What the bench reads from /proc beside the client's figures: the machine's load and steal, a
// process's CPU time (in all, and its main thread apart from the others), its peak memory, and the
// size of the logs the servers wrote.
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';

export const loadAverage = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

/** The machine's CPU time so far and the part of it the hypervisor gave to other guests (steal). */
export const machineTicks = () => {
  const [user, nice, system, idle, iowait, irq, softirq, steal = 0] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return { total: user + nice + system + idle + iowait + irq + softirq + steal, steal };
};

// Server CPU time per request, from /proc: far steadier than req/s when other work shares the
// machine, since time the server waits for a core is not counted.
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;
/** utime + stime of a /proc stat file (a process's, or one thread's under task/), in seconds. */
const statCpuSeconds = (file) => {
  const fields = readFileSync(file, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
};
/** utime + stime of process `pid` so far, in seconds (NaN once it is gone). */
export const cpuSeconds = (pid) => {
  try {
    return statCpuSeconds(`/proc/${pid}/stat`);
  } catch {
    return Number.NaN;
  }
};
/**
 * CPU seconds of process `pid`'s main thread and of all its other threads (libuv's pool, where the
 * password hashes and the log's file writes run, and V8's helpers), from /proc/<pid>/task.
 */
const threadCpu = (pid) => {
  const split = { main: 0, other: 0 };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      split[tid === String(pid) ? 'main' : 'other'] += statCpuSeconds(`/proc/${pid}/task/${tid}/stat`);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return split;
};
/**
 * Runs `work` and adds the CPU µs the server process `pid` spent per successful request, in all
 * and split between its main thread and the others.
 */
export const withCpu = async (pid, work) => {
  const before = cpuSeconds(pid);
  const threadsBefore = threadCpu(pid);
  const result = await work();
  const count = result.ok ?? result.checks;
  const threadsAfter = threadCpu(pid);
  const perRequest = (seconds) => (seconds * 1e6) / count;
  return {
    ...result,
    cpuUsPerRequest: perRequest(cpuSeconds(pid) - before),
    mainThreadUsPerRequest: perRequest(threadsAfter.main - threadsBefore.main),
    otherThreadsUsPerRequest: perRequest(threadsAfter.other - threadsBefore.other),
  };
};

/** The most resident memory the process has held (VmHWM), in MB. */
export const peakMemoryMb = (pid) => {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
  } catch {
    return Number.NaN;
  }
};

/** Bytes and lines of a log file, read in chunks (a fast machine writes more than a string can hold). */
export const linesOf = (file) => {
  const chunk = Buffer.alloc(1 << 20);
  const fd = openSync(file, 'r');
  let lines = 0;
  for (;;) {
    const read = readSync(fd, chunk, 0, chunk.length, null);
    if (read === 0) break;
    for (let at = chunk.indexOf(10); at !== -1 && at < read; at = chunk.indexOf(10, at + 1)) lines++;
  }
  closeSync(fd);
  return { bytes: statSync(file).size, lines };
};
