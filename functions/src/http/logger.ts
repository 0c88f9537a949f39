/**
 * The functions' logger: Powertools for AWS Lambda's Logger, one JSON line per
 * entry with the function's name, cold start, X-Ray trace id and the
 * request's correlation id (`setCorrelationId`, set per request by the group
 * handler and per generation by the workflow). Callers pass only what is safe
 * to keep: no bodies, no headers, no tokens. `LOG_LEVEL` sets the level
 * (`silent` in tests); on Lambda, the function's log level wins.
 */
import { Logger } from '@aws-lambda-powertools/logger';

type Level = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT';
const LEVELS: readonly string[] = ['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT'];

export function logLevelFromEnv(env: NodeJS.ProcessEnv = process.env): Level {
  const wanted = (env.LOG_LEVEL ?? '').toUpperCase();
  return (LEVELS.includes(wanted) ? wanted : 'INFO') as Level;
}

export const logger = new Logger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'tunesmith',
  logLevel: logLevelFromEnv(),
});

type Fields = Record<string, unknown>;

/** The logger as the domain's log ports take it: a message and optional fields. */
export const log = {
  info: (message: string, fields?: Fields) => (fields ? logger.info(message, fields) : logger.info(message)),
  warn: (message: string, fields?: Fields) => (fields ? logger.warn(message, fields) : logger.warn(message)),
  error: (message: string, fields?: Fields) =>
    fields ? logger.error(message, fields) : logger.error(message),
};
