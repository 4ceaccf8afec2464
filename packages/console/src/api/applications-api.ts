/** The console's calls for applications (clients of the identity provider), typed and parsed. */
import { type Application, adminRoutes } from '@edupass/protocol';
import { adminCall } from './admin-call.ts';
import { bool, items, list, num, record, str } from './parse.ts';

const urls = (value: unknown) => list(value).map((item) => str(item));

const application = (p: Record<string, unknown>): Application => ({
  client_id: str(p.client_id),
  name: str(p.name),
  logo_url: str(p.logo_url),
  redirect_uris: urls(p.redirect_uris),
  post_logout_redirect_uris: urls(p.post_logout_redirect_uris),
  first_party: bool(p.first_party),
  confidential: bool(p.confidential),
  require_pkce: bool(p.require_pkce),
  id_token_signed_response_alg: str(p.id_token_signed_response_alg),
  created_at: num(p.created_at),
});

export const getApplications = async (): Promise<Application[]> =>
  items(await adminCall(adminRoutes.listApplications), application, 'application');

export type NewApplicationForm = Omit<Application, 'client_id' | 'created_at' | 'id_token_signed_response_alg'>;

/** What the console's edit form changes. */
export type ApplicationChangeForm = Pick<Application, 'redirect_uris' | 'post_logout_redirect_uris' | 'require_pkce'>;

/** Registers an application; answers it and its secret (shown once; '' for a public one). */
export const addApplication = async (form: NewApplicationForm) => {
  const answer = record(await adminCall(adminRoutes.addApplication, { body: form }));
  return { application: application(record(answer.application)), secret: str(answer.client_secret) };
};

export const updateApplication = async (clientId: string, change: ApplicationChangeForm) =>
  application(
    record(await adminCall(adminRoutes.updateApplication, { params: { client_id: clientId }, body: change })),
  );

export const rotateApplicationSecret = async (clientId: string) =>
  str(record(await adminCall(adminRoutes.rotateApplicationSecret, { params: { client_id: clientId } })).client_secret);

export const removeApplication = (clientId: string) =>
  adminCall(adminRoutes.removeApplication, { params: { client_id: clientId } });
