/**
 * A PostgreSQL connection lent for one task. Nothing here reads the environment when it is loaded, so a
 * bench can import it before its cluster is up (databases.ts reads EDUPASS_TEST_PG_URL as it loads).
 */
import pg from 'pg';

/** Runs `run` on a connection of its own to `url`, closed after it whatever happens. */
export const withPgClient = async <T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
};
