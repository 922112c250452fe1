// glibc's malloc gives the top of its heap back to the system as soon as 128 KB of it is free, and
// takes it back page by page when memory is asked for again: each page first touched again is a
// fault, ~12 µs on the machines Loupe is measured on. V8's optimizing compiler frees and asks again
// for its working memory with every function it compiles (two fifths of the faults, by `perf record
// -e page-faults`), so a first `loupe index` of 1,000 logs took 45,000–52,000 faults, 0.6–0.9 s of
// system time on 2 cores. glibc raises that threshold by itself once a block it had mapped apart is
// freed (to twice the block's size: its "dynamic mmap threshold"), which is what
// raiseHeapTrimThreshold does, once, with a 1 MB block. Six runs each, turn about: 47,000 → 39,000
// faults, CPU 5.58 → 5.48 s, time 3.06 → 3.01 s (GLIBC_TUNABLES=glibc.malloc.trim_threshold=2097152
// does the same from outside). Elsewhere (another libc, another system) it costs a few milliseconds
// and changes nothing.

let raised = false;

/** Frees a 1 MB block glibc maps apart (a structured clone's buffer): its trim threshold is then 2 MB. */
export function raiseHeapTrimThreshold(): void {
  if (raised || process.platform !== 'linux') return;
  raised = true;
  structuredClone('x'.repeat(1 << 20));
}
