/** The console's webhook calls, typed by the route table. */
import { adminRoutes } from '@edupass/protocol';
import { adminCall } from './admin-call.ts';

export const listWebhooks = () => adminCall(adminRoutes.listWebhooks);

export const addWebhook = (product: string, url: string, events: string[]) =>
  adminCall(adminRoutes.addWebhook, { body: { product, url, events } });

export const removeWebhook = (id: number) => adminCall(adminRoutes.removeWebhook, { params: { id } });

export const setWebhookEnabled = (id: number, enabled: boolean) =>
  adminCall(adminRoutes.setWebhookEnabled, { params: { id }, body: { enabled } });

export const listDeliveries = (endpointId: number) =>
  adminCall(adminRoutes.listWebhookDeliveries, { params: { id: endpointId }, query: { limit: 50 } });

export const resendDelivery = (deliveryId: number) =>
  adminCall(adminRoutes.resendWebhookDelivery, { params: { id: deliveryId } });
