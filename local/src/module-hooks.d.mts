export function withoutModuleHooks<T>(load: () => Promise<T>): Promise<T>;
