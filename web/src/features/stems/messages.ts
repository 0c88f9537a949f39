/** A stem's name as the screens write it ("vocals" → "Vocals"). */
export function stemLabel(name: string): string {
  return name ? name.charAt(0).toUpperCase() + name.slice(1) : name;
}

/** The stems' words on the track page. */
export const stemsMessages = {
  heading: 'Stems',
  processing: 'Separating stems… They show here once they are ready.',
  failed: 'The stems could not be made. The generation it used was given back: you can ask again.',
  loading: 'Loading the stems…',
  loadFailed: 'The stems could not be loaded, so the track plays as it was mixed.',
  tryAgain: 'Try again',
  hint: 'Mute, solo or set the level of each stem; the track then plays from its stems.',
  mute: (name: string) => `Mute ${name}`,
  solo: (name: string) => `Solo ${name}`,
  volume: (name: string) => `${stemLabel(name)} volume`,
  download: 'Download stems',
  upgrade: 'Upgrade to Download Stems',
  downloadFailedTitle: 'Download Failed',
  downloadFailed: 'The stems could not be downloaded.',
} as const;
