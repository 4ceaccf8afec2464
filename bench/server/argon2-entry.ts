/**
 * The raw password-check rate: the server's own argon2id code (same parameters, same library), run
 * with `concurrency` checks in flight for `seconds`, in one process pinned like the server. A login
 * verifies a stored hash, so this measures `verifyPassword`; verifying costs what hashing costs.
 */
import { hashPassword, verifyPassword } from '../../packages/server/src/services/passwords/argon2.ts';

const seconds = Number(process.argv[2] ?? 5);
const concurrency = Number(process.argv[3] ?? 8);
const password = 'Bench-pass-2026';
const stored = await hashPassword(password);

// One check to warm the thread pool before the clock starts.
await verifyPassword(stored, password);

let done = 0;
let failed = 0;
const cpuBefore = process.cpuUsage();
const started = performance.now();
const deadline = started + seconds * 1000;
const worker = async () => {
  while (performance.now() < deadline) {
    if (await verifyPassword(stored, password)) done++;
    else failed++;
  }
};
await Promise.all(Array.from({ length: concurrency }, worker));
const elapsed = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
const cpuUsPerRequest = (cpu.user + cpu.system) / done;
process.stdout.write(
  `${JSON.stringify({ checks: done, failed, seconds: elapsed, rate: done / elapsed, cpuUsPerRequest })}\n`,
);
