// randexp 0.6 ships no types: what the leak corpus (leakCorpus.ts, tests and scripts only) uses of it.
declare module 'randexp' {
  interface Range {
    add(from: number, to?: number): Range;
    subtract(from: number, to?: number): Range;
  }
  export default class RandExp {
    constructor(pattern: string | RegExp, flags?: string);
    max: number;
    defaultRange: Range;
    randInt: (from: number, to: number) => number;
    gen(): string;
  }
}
