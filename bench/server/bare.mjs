// Baseline: a bare node:http handler answering a small JSON of the profile's size.
import { createServer } from 'node:http';

const body = process.argv[2] ?? '{"ok":true}';
const server = createServer((request, response) => {
  request.resume();
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ ready: true, port: server.address().port })}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
