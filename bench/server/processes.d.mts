// Types of processes.mjs for the TypeScript benches that start the server with it (bench/scale).
import type { ChildProcess } from 'node:child_process';

/** Whether `taskset` pins the children to cores. */
export declare const pinned: boolean;
/** Starts a long-running child pinned to `core` (a taskset list); resolves once it wrote its port. */
export declare function startChild(
  core: string,
  args: string[],
  childEnv?: Record<string, string>,
  logFile?: string,
): Promise<{ child: ChildProcess; url: string }>;
/** Stops a child started by `startChild` and waits for its exit. */
export declare function stopChild(child: ChildProcess): Promise<void>;
