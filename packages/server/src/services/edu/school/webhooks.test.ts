import { routes } from '@edupass/protocol';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { startWebhookReceiver } from '@edupass/test-kit/webhook-receiver';
import { Webhook } from 'standardwebhooks';
import { describe, expect, test } from 'vitest';

const { server, call } = useTestServer({
  webhooks: { allowPrivate: true, pollMs: 50, timeoutMs: 5_000, disableAfterMs: 86_400_000 },
});
const edu = eduSteps(server, call);

describe('education webhooks', () => {
  test('class.changed, pupils.created and class.membership.changed, each written with its change', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const endpoint = await edu.webhookEndpoint(receiver.url, [
        'class.changed',
        'class.membership.changed',
        'pupils.created',
      ]);
      const schoolId = await edu.addSchool();
      const teacher = await edu.approvedTeacher(schoolId);
      const classA = await edu.createClass(teacher, schoolId, 'A');
      const classB = await edu.createClass(teacher, schoolId, 'B');
      const pupils = await edu.createPupils(teacher, classA, ['周一', '吴二']);
      const ids = pupils.map((p) => p.user_id);
      edu.ok(
        await call(
          'POST',
          pathOf(routes.movePupils.path, { id: classA }),
          { user_ids: ids, to_class_id: classB },
          { token: teacher.token },
        ),
        204,
      );
      const verifier = new Webhook(endpoint.secret.replace(/^whsec_/, ''));
      await expect.poll(() => receiver.received.length).toBe(4);
      const events = receiver.received.map(
        (r) =>
          verifier.verify(r.body, r.headers as Record<string, string>) as {
            type: string;
            data: Record<string, unknown>;
          },
      );
      expect(events.map((e) => e.type).sort()).toEqual([
        'class.changed',
        'class.changed',
        'class.membership.changed',
        'pupils.created',
      ]);
      expect(events.find((e) => e.type === 'pupils.created')?.data).toMatchObject({
        school_id: schoolId,
        class_id: classA,
        user_ids: ids,
      });
      expect(events.find((e) => e.type === 'class.membership.changed')?.data).toMatchObject({
        from_class_id: classA,
        to_class_id: classB,
        user_ids: ids,
      });
    } finally {
      await receiver.close();
    }
  });
});
