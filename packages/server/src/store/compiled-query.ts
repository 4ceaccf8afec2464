/**
 * Queries on a hot path, built and compiled through Kysely once per database handle and then run
 * with each call's values: building and compiling a query cost more than running it (a token refresh
 * spent about a tenth of its CPU there, bench/server).
 */
import type { Compilable, Kysely, QueryResult } from 'kysely';
import type { Database } from './schema.ts';

type Db = Kysely<Database>;

/**
 * A runner of the query `build` makes from placeholder values; `values` at each run take their
 * places in the compiled query's parameter order, which is the order `build` uses them in.
 */
export const compiledOnce = <Row, Values extends unknown[]>(
  build: (db: Db, ...placeholders: Values) => Compilable<Row>,
  placeholders: Values,
) => {
  const compiled = new WeakMap<Db, ReturnType<Compilable<Row>['compile']>>();
  return (db: Db, ...values: Values): Promise<QueryResult<Row>> => {
    let query = compiled.get(db);
    if (query === undefined) {
      query = build(db, ...placeholders).compile();
      // A query whose values Kysely inlines or repeats cannot be run this way.
      if (query.parameters.length !== placeholders.length)
        throw new Error(`compiledOnce: ${query.parameters.length} parameters for ${placeholders.length} values`);
      compiled.set(db, query);
    }
    return db.executeQuery<Row>({ ...query, parameters: values });
  };
};
