// Types of measurement.mjs for the TypeScript benches that read /proc with it (bench/district).
/** The 1-minute load average. */
export declare const loadAverage: () => number;
/** The machine's CPU ticks so far, and those the hypervisor gave to other guests. */
export declare const machineTicks: () => { total: number; steal: number };
/** utime + stime of process `pid` so far, in seconds (NaN once it is gone). */
export declare const cpuSeconds: (pid: number) => number;
/** The most resident memory the process has held (VmHWM), in MB. */
export declare const peakMemoryMb: (pid: number) => number;
