/** What the server logs through (pino's shape): every layer may take one, so it belongs to none. */
export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
