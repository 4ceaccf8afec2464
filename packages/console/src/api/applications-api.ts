/** The console's calls for applications (clients of the identity provider), typed by the route table. */
import { type Application, adminRoutes } from '@edupass/protocol';
import { adminCall } from './admin-call.ts';

export const getApplications = () => adminCall(adminRoutes.listApplications);

export type NewApplicationForm = Omit<Application, 'client_id' | 'created_at' | 'id_token_signed_response_alg'>;

/** What the console's edit form changes. */
export type ApplicationChangeForm = Pick<
  Application,
  'redirect_uris' | 'post_logout_redirect_uris' | 'require_pkce' | 'backchannel_logout_uri'
>;

/** Registers an application; answers it and its secret (shown once; '' for a public one). */
export const addApplication = (form: NewApplicationForm) => adminCall(adminRoutes.addApplication, { body: form });

export const updateApplication = (clientId: string, change: ApplicationChangeForm) =>
  adminCall(adminRoutes.updateApplication, { params: { client_id: clientId }, body: change });

export const rotateApplicationSecret = async (clientId: string) =>
  (await adminCall(adminRoutes.rotateApplicationSecret, { params: { client_id: clientId } })).client_secret;

export const removeApplication = (clientId: string) =>
  adminCall(adminRoutes.removeApplication, { params: { client_id: clientId } });
