/** A school's CAS server: its prefix URL and the protocol version it speaks. */
import type { KindForm } from './kind-form.ts';

export const cas: KindForm = {
  fields: [{ key: 'server_url' }],
  editable: [{ key: 'server_url' }],
  choice: {
    key: 'version',
    options: () => [
      { value: '3.0', label: 'CAS 3.0' },
      { value: '2.0', label: 'CAS 2.0' },
    ],
    initial: '3.0',
    editable: true,
  },
};
