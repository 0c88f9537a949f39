/**
 * The power spectrum of real frames of one size (a power of two): a complex
 * radix-2 FFT of half the size on the even and odd samples, then the split
 * that turns it into the real frame's spectrum. Tables are made once per size.
 */
export class RealFft {
  readonly size: number;
  private readonly half: number;
  private readonly re: Float64Array;
  private readonly im: Float64Array;
  private readonly reverse: Uint32Array;
  /** Twiddles of the half-size transform. */
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;
  /** Twiddles of the split (e^{-2πik/size}). */
  private readonly splitCos: Float64Array;
  private readonly splitSin: Float64Array;

  constructor(size: number) {
    if (size < 4 || (size & (size - 1)) !== 0)
      throw new RangeError('The FFT size must be a power of two, at least 4');
    this.size = size;
    const half = size / 2;
    this.half = half;
    this.re = new Float64Array(half);
    this.im = new Float64Array(half);
    this.reverse = new Uint32Array(half);
    const bits = Math.log2(half);
    for (let i = 0; i < half; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      this.reverse[i] = r;
    }
    this.cos = new Float64Array(half / 2);
    this.sin = new Float64Array(half / 2);
    for (let i = 0; i < half / 2; i++) {
      this.cos[i] = Math.cos((2 * Math.PI * i) / half);
      this.sin[i] = -Math.sin((2 * Math.PI * i) / half);
    }
    this.splitCos = new Float64Array(half + 1);
    this.splitSin = new Float64Array(half + 1);
    for (let k = 0; k <= half; k++) {
      this.splitCos[k] = Math.cos((2 * Math.PI * k) / size);
      this.splitSin[k] = -Math.sin((2 * Math.PI * k) / size);
    }
  }

  /** Writes |X[k]|² for k = 0..size/2 of `frame` (length `size`) into `power` (length size/2 + 1). */
  power(frame: Float32Array | Float64Array, power: Float32Array | Float64Array): void {
    const { half, re, im, reverse } = this;
    for (let i = 0; i < half; i++) {
      const j = reverse[i] as number;
      re[j] = frame[2 * i] as number;
      im[j] = frame[2 * i + 1] as number;
    }
    for (let span = 1; span < half; span *= 2) {
      const stride = half / (2 * span);
      for (let start = 0; start < half; start += 2 * span) {
        for (let k = 0; k < span; k++) {
          const wr = this.cos[k * stride] as number;
          const wi = this.sin[k * stride] as number;
          const a = start + k;
          const b = a + span;
          const br = re[b] as number;
          const bi = im[b] as number;
          const tr = wr * br - wi * bi;
          const ti = wr * bi + wi * br;
          const ar = re[a] as number;
          const ai = im[a] as number;
          re[b] = ar - tr;
          im[b] = ai - ti;
          re[a] = ar + tr;
          im[a] = ai + ti;
        }
      }
    }
    for (let k = 0; k <= half; k++) {
      const a = k % half;
      const b = (half - k) % half;
      const ar = re[a] as number;
      const ai = im[a] as number;
      const br = re[b] as number;
      const bi = -(im[b] as number);
      // Even part (a + b)/2, odd part (a - b)/(2i).
      const er = (ar + br) / 2;
      const ei = (ai + bi) / 2;
      const or = (ai - bi) / 2;
      const oi = -(ar - br) / 2;
      const wr = this.splitCos[k] as number;
      const wi = this.splitSin[k] as number;
      const xr = er + wr * or - wi * oi;
      const xi = ei + wr * oi + wi * or;
      power[k] = xr * xr + xi * xi;
    }
  }
}
