// The bench's child processes: servers that run until stopped (pinned to the server core) and jobs
// that run to completion and answer one JSON line (the client, the argon2 probe, the ingestion bench).
import { spawn, spawnSync } from 'node:child_process';
import { openSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { log } from './settings.mjs';

const env = process.env;

export const pinned = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
if (!pinned) log('taskset is not available: server and client run unpinned (figures are even noisier).');
const pin = (core, args) => (pinned ? ['taskset', ['-c', core, ...args]] : [args[0], args.slice(1)]);

const children = new Set();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/**
 * Starts a long-running child and resolves with it and the port from its first line: on stdout, or,
 * with `logFile`, on fd 3 (its stdout then goes to that file, as a deployment sends the log).
 */
export const startChild = (core, args, childEnv = {}, logFile = undefined) =>
  new Promise((resolve, reject) => {
    const [cmd, argv] = pin(core, args);
    const stdio =
      logFile === undefined ? ['ignore', 'pipe', 'inherit'] : ['ignore', openSync(logFile, 'a'), 'inherit', 'pipe'];
    const child = spawn(cmd, argv, { env: { ...env, ...childEnv }, stdio });
    children.add(child);
    child.once('exit', (code) => {
      children.delete(child);
      reject(new Error(`${args.join(' ')} exited with ${code} before it was ready`));
    });
    createInterface({ input: logFile === undefined ? child.stdout : child.stdio[3] }).once('line', (line) => {
      const { port } = JSON.parse(line);
      resolve({ child, url: `http://127.0.0.1:${port}` });
    });
  });

export const stopChild = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', () => {
      children.delete(child);
      resolve();
    });
    child.kill('SIGTERM');
  });

/** Waits for a child to finish and parses the JSON line it printed last; `what` names it in a failure. */
const lastJsonLine = (child, what) =>
  new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`${what} exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').at(-1)));
    });
  });

/** Runs a child pinned to `core` to completion and parses the JSON line it prints last. */
export const runJson = (core, args) => {
  const [cmd, argv] = pin(core, args);
  return lastJsonLine(spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'inherit'] }), args.join(' '));
};

/** Runs a child unpinned, with `childEnv` added to the bench's environment, and parses its last JSON line. */
export const runJsonUnpinned = (args, childEnv, what) =>
  lastJsonLine(
    spawn(args[0], args.slice(1), { env: { ...env, ...childEnv }, stdio: ['ignore', 'pipe', 'inherit'] }),
    what,
  );
