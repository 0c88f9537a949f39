/** Which field of a form a server's message is about, by the shared messages each field can get. */
export function fieldOf<K extends string>(
  message: string,
  fields: Record<K, readonly string[]>,
): K | undefined {
  return (Object.keys(fields) as K[]).find((field) => fields[field].includes(message));
}
