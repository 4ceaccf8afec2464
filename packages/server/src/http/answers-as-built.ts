/**
 * Response schemas document answers (the API docs) and never shape them: with this, every answer is
 * sent as JSON.stringify writes it, with any field a schema lacks and in the order the handler built
 * it, where Fastify's schema serializer would drop the one and reorder the other.
 */
import type { FastifyInstance } from 'fastify';

export const sendAnswersAsBuilt = (app: FastifyInstance) => {
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
};
