/** `/console` → the operator console's page (a separate entry of the web client's build). */
import type { FastifyInstance } from 'fastify';

export const consoleRoutes = (app: FastifyInstance) => {
  app.get('/console', { schema: { hide: true } }, (_request, reply) => reply.redirect('/console.html', 302));
};
