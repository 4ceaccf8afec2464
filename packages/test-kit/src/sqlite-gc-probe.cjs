// Prepares and drops statements between I/O callbacks, so the garbage collector finalizes
// better-sqlite3 statements at the points a server's would: an addon compiled against Node 24.19+
// headers aborts the process there ("Assertion failed: (env) != nullptr", nodejs/node#65446).
// Usage: node sqlite-gc-probe.cjs <path of the better-sqlite3 package> [rounds]
'use strict';
const { readFile } = require('node:fs');
const Database = require(process.argv[2] || 'better-sqlite3');
const rounds = Number(process.argv[3] || 400);

const db = new Database(':memory:');
db.exec('create table probe (n integer)');
(async () => {
  let n = 0;
  for (let round = 0; round < rounds; round++) {
    await new Promise((resolve) => readFile(__filename, resolve));
    for (let i = 0; i < 500; i++) {
      db.prepare('insert into probe values (?)').run(n++);
      await null;
    }
  }
  db.close();
  console.log(`prepared ${n} statements`);
})();
