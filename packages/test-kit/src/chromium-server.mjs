// The run's Chromium behind Playwright's server, in a process of its own (browser-global-setup.ts
// starts it): Playwright's side of every page runs here, not in Vitest's main process, which is busy
// with the reporters. Prints the WebSocket address on its first line; stops on SIGTERM.
import { chromium } from 'playwright-core';

const [executablePath, argsJson] = process.argv.slice(2);
const server = await chromium.launchServer({ executablePath, headless: true, args: JSON.parse(argsJson) });
process.stdout.write(`${server.wsEndpoint()}\n`);
const stop = async () => {
  await server.close();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
process.once('disconnect', stop);
