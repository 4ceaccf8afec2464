/** One tracker batch of one event, posted as the tracker does (text/plain body); answers the response. */
import { randomUUID } from 'node:crypto';

export const reportOneEvent = (url: string, deviceUid = 'device-1', product = 'edupass') =>
  fetch(`${url}/report/${product}`, {
    method: 'POST',
    body: JSON.stringify({
      type: 0,
      alg: '',
      data: {
        m: { d: 1, p: product, tst: 0, h: 0 },
        e: { uid: deviceUid },
        b: [{ e: 'lesson_open', i: randomUUID(), t: Math.floor(Date.now() / 1000), d: {} }],
      },
    }),
  });
