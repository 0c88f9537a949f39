/**
 * Stands in for `mnemonist/lru-cache` in Lambda bundles (lambda-bundle.ts).
 * The DynamoDB client makes a cache for endpoint discovery as it is built,
 * which only a client with discovery turned on ever fills (ours never turn it
 * on); mnemonist, its typed arrays and iterator helpers are 8 kB every cold
 * start would parse (decision 042). A Map keeps the same least recently used
 * order: reading an entry moves it to the end, and the first entry goes when
 * a new key would exceed the capacity.
 */
export default class LRUCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** The value, without making it the most recently used. */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key) as V;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: K, value: V): this {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as K);
    return this;
  }

  clear(): void {
    this.entries.clear();
  }
}
