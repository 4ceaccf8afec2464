/**
 * Vitest global setup of the `server-clickhouse` project: uses the ClickHouse at
 * EDUPASS_TEST_CLICKHOUSE_URL (scripts/test.mjs starts a scratch one), else starts a scratch server
 * for this run and stops it afterwards.
 */
import { startScratchClickHouse } from '../../../scripts/scratch-clickhouse.mjs';

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.EDUPASS_TEST_CLICKHOUSE_URL) return undefined;
  const server = await startScratchClickHouse();
  process.env.EDUPASS_TEST_CLICKHOUSE_URL = server.url;
  return () => server.remove();
}
