// Baseline: a bare node:http handler answering the profile read's bytes. With `log` (argv[3]) it
// writes the access log the server writes for that read (its line at LOG_LEVEL=info: request id,
// method, URL, host, client address, status and time) through pino to stdout,
// asynchronously as the server does (http/log-destination.ts); run.mjs sends that stdout to a file
// and then reads the ready line on fd 3. Without it, it logs nothing and says it is ready on stdout.
import { randomUUID } from 'node:crypto';
import { writeSync } from 'node:fs';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import pino from 'pino';

const body = process.argv[2] ?? '{"ok":true}';
const logged = process.argv[3] === 'log';
const log = logged ? pino({ level: 'info' }, pino.destination({ dest: 1, sync: false })) : undefined;
const server = createServer((request, response) => {
  const started = performance.now();
  request.resume();
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
  if (log === undefined) return;
  const { socket } = request;
  log.info(
    {
      reqId: randomUUID(),
      req: {
        method: request.method,
        url: request.url,
        host: request.headers.host,
        remoteAddress: socket.remoteAddress,
        remotePort: socket.remotePort,
      },
      res: { statusCode: 200 },
      responseTime: performance.now() - started,
    },
    'request completed',
  );
});
server.listen(0, '127.0.0.1', () => {
  const ready = `${JSON.stringify({ ready: true, port: server.address().port })}\n`;
  if (logged) writeSync(3, ready);
  else process.stdout.write(ready);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
