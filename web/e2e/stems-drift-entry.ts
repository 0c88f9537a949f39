// What the drift test bundles into the page: the live mixer's graph and gains, as they ship.
export { buildMixerGraph, setStemGains, startStems, stopStems } from '../src/features/stems/mixer/graph';
export { stemGains } from '../src/features/stems/mixer/mix';
