/**
 * A minimal structured logger: one JSON line per entry. Callers pass only
 * what is safe to keep; errors are reduced to name and message (no bodies,
 * no headers, no tokens).
 */
type Fields = Record<string, unknown>;

function safe(fields: Fields): Fields {
  const out: Fields = {};
  for (const [key, value] of Object.entries(fields)) {
    out[key] = value instanceof Error ? { name: value.name, message: value.message } : value;
  }
  return out;
}

function write(level: 'info' | 'warn' | 'error', message: string, fields: Fields = {}): void {
  if (process.env.LOG_LEVEL === 'silent') return;
  const line = JSON.stringify({ level, message, ...safe(fields) });
  if (level === 'error') console.error(line);
  else console.log(line);
}

export const logger = {
  info: (message: string, fields?: Fields) => write('info', message, fields),
  warn: (message: string, fields?: Fields) => write('warn', message, fields),
  error: (message: string, fields?: Fields) => write('error', message, fields),
};
