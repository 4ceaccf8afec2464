/**
 * Every route the server registered, read from Fastify itself (`printRoutes`), not from the protocol
 * table: a route added with `app.get(…)` beside the table is listed too, so a walk over these cannot
 * miss it. HEAD (Fastify's twin of each GET) is left out.
 */
import type { FastifyInstance } from 'fastify';

export interface RegisteredRoute {
  method: string;
  path: string;
}

/** `├── /admin/users (GET, HEAD)` → depth from the indent, the segment, the methods. */
const LINE = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/u;

export const registeredRoutes = (app: FastifyInstance): RegisteredRoute[] => {
  const found: RegisteredRoute[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = LINE.exec(line);
    if (!match) continue;
    const depth = [...(match[1] ?? '')].length / 4;
    stack.length = depth;
    const path = `${stack.at(-1) ?? ''}${match[2] ?? ''}`;
    stack.push(path);
    for (const method of (match[3] ?? '').split(', ').filter((m) => m !== '' && m !== 'HEAD')) {
      found.push({ method, path });
    }
  }
  return found;
};
