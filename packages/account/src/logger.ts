/** Where the SDK reports what is worth a developer's attention but not an error (unexpected token shapes). */
export interface Logger {
  warn(message: string, detail?: unknown): void;
}

/** The default logger: the console, the only place the library touches it. */
export const consoleLogger: Logger = {
  warn: (message, detail) => console.warn(`[edupass/account] ${message}`, detail),
};
