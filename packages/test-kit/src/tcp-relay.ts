/**
 * A TCP relay in front of a service (PostgreSQL, Redis) that a test can cut — every connection
 * dropped and the port closed, as when the service goes away — and open again on the same port.
 */
import { createServer, type Server, Socket } from 'node:net';
import { freePort } from './child-server.ts';

export interface TcpRelay {
  port: number;
  cut(): Promise<void>;
  open(): Promise<void>;
}

export const startTcpRelay = async (host: string, targetPort: number): Promise<TcpRelay> => {
  const sockets = new Set<Socket>();
  const port = await freePort();
  let listener: Server | undefined;
  const open = () =>
    new Promise<void>((done, fail) => {
      listener = createServer((inbound) => {
        const outbound = new Socket();
        sockets.add(inbound).add(outbound);
        for (const s of [inbound, outbound]) {
          s.on('error', () => s.destroy());
          s.on('close', () => {
            sockets.delete(s);
            inbound.destroy();
            outbound.destroy();
          });
        }
        outbound.connect(targetPort, host);
        inbound.pipe(outbound).pipe(inbound);
      });
      listener.once('error', fail);
      listener.listen(port, '127.0.0.1', () => done());
    });
  await open();
  return {
    port,
    open,
    cut: () =>
      new Promise<void>((done) => {
        for (const s of sockets) s.destroy();
        if (listener?.listening) listener.close(() => done());
        else done();
      }),
  };
};
