/**
 * The server's request log as a test reads it: pino's JSON lines, where Fastify (and the requests
 * answered before it) write "request completed" with the request, and at debug "incoming request"
 * before it, under one request id (http/request-log.ts).
 */

export interface RequestLogLine {
  msg: string;
  reqId?: string;
  req?: { method: string; url: string; [field: string]: unknown };
  res?: { statusCode: number };
  [field: string]: unknown;
}

/**
 * The lines of the requests whose URL `chosen` accepts (their "request completed", "incoming request"
 * and any other line under their request id), in the order written. `lines`: one JSON line each, as
 * a stream hands them over, or a log file's text.
 */
export const requestLines = (lines: string[] | string, chosen: (url: string) => boolean): RequestLogLine[] => {
  const parsed = (typeof lines === 'string' ? lines.split('\n') : lines)
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as RequestLogLine);
  const ids = new Set(
    parsed.filter((line) => line.req !== undefined && chosen(line.req.url)).map((line) => line.reqId),
  );
  return parsed.filter((line) => line.reqId !== undefined && ids.has(line.reqId));
};
