/** The waveforms' colours: the unplayed part in grey, the played part in the player's accent. */
export const waveformColours = {
  waveColor: '#71717a',
  progressColor: '#d946ef',
  cursorColor: '#f5d0fe',
} as const;
