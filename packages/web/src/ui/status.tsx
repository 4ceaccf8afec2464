/** The outcome of a form: an error (announced at once) or a notice (announced politely). */
export const FormError = ({ message }: { message: string | null }) =>
  message ? (
    <p className="form-error" role="alert">
      {message}
    </p>
  ) : null;

export const Notice = ({ message }: { message: string | null }) => (
  <p className="notice" role="status" hidden={!message}>
    {message}
  </p>
);
