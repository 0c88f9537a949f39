export interface CompileOptions {
  /** The directory the entries' paths are relative to. */
  root: string;
  /** Entry name to source path. */
  entries: Record<string, string>;
  /** Where builds are kept. */
  cacheDir: string;
  /** Further files whose change must build again (relative to root). */
  settings?: string[];
}
export function compile(options: CompileOptions): Promise<{ files: Record<string, string>; built: boolean }>;
export function localCloudEntry(entry: 'start' | 'serve'): Promise<string>;
