/** The order `npm test` starts its files in (scripts/test-order.ts). */
import { describe, expect, it } from 'vitest';
import { type Planned, startOrder } from './test-order.ts';

const file = (project: string, path: string): Planned => ({ project, path });
const names = (files: Planned[]) => files.map((f) => `${f.project}:${f.path}`);

describe('the start order of the test files', () => {
  it('starts the long files first, longest first, whatever their project', () => {
    const files = [
      file('sdk', 'a.test.ts'),
      file('server-sqlite', 'b.test.ts'),
      file('sdk', 'c.test.ts'),
      file('server-sqlite', 'd.test.ts'),
    ];
    const order = startOrder(files, {
      'sdk:a.test.ts': 40_000,
      'server-sqlite:b.test.ts': 200_000,
      'sdk:c.test.ts': 1_000,
      'server-sqlite:d.test.ts': 2_000,
    });
    expect(names(order).slice(0, 2)).toEqual(['server-sqlite:b.test.ts', 'sdk:a.test.ts']);
  });

  it('keeps the short files of a project together, longest first; the run ends on the shortest', () => {
    const files = [
      file('server-sqlite', 'x.test.ts'),
      file('sdk', 'p.test.ts'),
      file('server-sqlite', 'y.test.ts'),
      file('sdk', 'q.test.ts'),
    ];
    const order = startOrder(files, {
      'server-sqlite:x.test.ts': 5_000,
      'server-sqlite:y.test.ts': 20_000,
      'sdk:p.test.ts': 500,
      'sdk:q.test.ts': 900,
    });
    expect(names(order)).toEqual([
      'server-sqlite:y.test.ts',
      'server-sqlite:x.test.ts',
      'sdk:q.test.ts',
      'sdk:p.test.ts',
    ]);
  });

  it('counts a file the last run did not measure as a typical file of its project', () => {
    const files = [file('sdk', 'new.test.ts'), file('sdk', 'short.test.ts'), file('sdk', 'mid.test.ts')];
    const order = startOrder(files, {
      'sdk:short.test.ts': 1_000,
      'sdk:mid.test.ts': 8_000,
      'sdk:long.test.ts': 90_000,
    });
    // The project's median is 8 s: the new file ties with mid.test.ts and goes by name.
    expect(names(order)).toEqual(['sdk:mid.test.ts', 'sdk:new.test.ts', 'sdk:short.test.ts']);
  });

  it('is the files in name order when nothing was measured', () => {
    const files = [file('sdk', 'b.test.ts'), file('sdk', 'a.test.ts')];
    expect(names(startOrder(files, {}))).toEqual(['sdk:a.test.ts', 'sdk:b.test.ts']);
  });
});
