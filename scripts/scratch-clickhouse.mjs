// A scratch ClickHouse server for tests and benches: its own config and data directory under a temp
// dir, on free loopback ports, no system service. `clickhouse-server` from Debian (18.16) or newer.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const clickhouseInstalled = () =>
  existsSync('/usr/bin/clickhouse-server') ||
  existsSync('/usr/sbin/clickhouse-server') ||
  spawnSync('sh', ['-c', 'command -v clickhouse-server']).status === 0;

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

const config = ({ dir, httpPort, tcpPort }) => `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>${dir}/server.log</log><errorlog>${dir}/error.log</errorlog><console>0</console></logger>
  <http_port>${httpPort}</http_port>
  <tcp_port>${tcpPort}</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <max_connections>256</max_connections>
  <keep_alive_timeout>3</keep_alive_timeout>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <user_files_path>${dir}/user_files/</user_files_path>
  <format_schema_path>${dir}/format_schemas/</format_schema_path>
  <users_config>/etc/clickhouse-server/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>268435456</mark_cache_size>
  <uncompressed_cache_size>268435456</uncompressed_cache_size>
</yandex>
`;

const answers = async (url) => {
  try {
    const response = await fetch(`${url}/ping`, { signal: AbortSignal.timeout(1000) });
    return response.ok;
  } catch {
    return false;
  }
};

/**
 * Starts a scratch server and waits until it answers (up to `timeoutMs`). The answer's `stop()`
 * ends it (SIGTERM, then waits for the process), `start()` starts it again on the same ports and
 * data, and `remove()` stops it and deletes its directory. `dir` names a directory to keep (created
 * when missing): a later start on it finds the data again (stop it with `stop()`, not `remove()`).
 */
export const startScratchClickHouse = async ({ timeoutMs = 60_000, dir: kept = undefined } = {}) => {
  const dir = kept ?? mkdtempSync(join(tmpdir(), 'edupass-clickhouse-'));
  for (const sub of ['data', 'tmp', 'user_files', 'format_schemas']) mkdirSync(join(dir, sub), { recursive: true });
  const httpPort = await freePort();
  const tcpPort = await freePort();
  const file = join(dir, 'config.xml');
  writeFileSync(file, config({ dir, httpPort, tcpPort }));
  const url = `http://127.0.0.1:${httpPort}`;
  let child;
  const start = async () => {
    // Already running: a second server on the same ports would leave the first one behind, orphaned.
    if (child !== undefined && child.exitCode === null) return;
    child = spawn('clickhouse-server', [`--config-file=${file}`], { cwd: dir, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', () => resolve(true)));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (await answers(url)) return;
      if (await Promise.race([exited, new Promise((r) => setTimeout(() => r(false), 100))])) {
        throw new Error(`clickhouse-server exited at start; see ${dir}/error.log`);
      }
      if (Date.now() > deadline) throw new Error(`clickhouse-server did not answer within ${timeoutMs} ms`);
    }
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    const forced = setTimeout(() => running.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(forced);
  };
  await start();
  return {
    url,
    dir,
    pid: () => child?.pid,
    start,
    stop,
    async remove() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
    /** At once, for exit paths that cannot wait: SIGKILL, then the directory goes. */
    kill() {
      child?.kill('SIGKILL');
      child = undefined;
      try {
        rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
      } catch {}
    },
  };
};
