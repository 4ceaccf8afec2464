/**
 * A code that could not be delivered: `message` is safe to show the user (it becomes E_6's
 * error_message), `detail` is for the log and the operator.
 */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly detail: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'DeliveryError';
  }
}
