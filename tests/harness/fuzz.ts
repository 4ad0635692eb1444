// The fuzz harness of the hardening tests (tests/integration/hardening-fuzz*.test.ts): the run's seed and scale, the
// odd values every field is fed, the fuzz app, a status tally and fast-check's property runner with the seed in its
// failure. Seed: PATCHBAY_FUZZ_SEED (printed on every run, so a failure can be replayed).
import fc from "fast-check";
import type { PatchbayFixture } from "./patchbay-fixture";

/** The run's seed: PATCHBAY_FUZZ_SEED, else from the clock, so CI covers new inputs on each run. */
export const FUZZ_SEED = Number(process.env.PATCHBAY_FUZZ_SEED ?? Date.now() % 2 ** 31);
/** PATCHBAY_FUZZ_SCALE multiplies the run counts for a longer hunt by hand (CI uses 1). */
export const FUZZ_SCALE = Math.max(1, Number(process.env.PATCHBAY_FUZZ_SCALE ?? 1));

/** Values that break naive code: wrong types, lone surrogates, NUL, huge strings, prototype keys. */
export const weird = fc.constantFrom<unknown>(
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  -0,
  "",
  " ",
  "\u0000",
  "\ud800",
  "null",
  "[]",
  "{}",
  [],
  {},
  [null],
  { "": "" },
  "x".repeat(20_000),
  { __proto__: { polluted: true } },
  { constructor: { prototype: { polluted: true } } },
);
/** Any JSON value, or one of {@link weird}. */
export const anyish: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 2, arbitrary: weird },
);

/** A JSON schema nested `depth` levels deep (stack-depth probe for recursive walkers). */
export function nest(depth: number): unknown {
  let s: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < depth; i++) s = { type: "object", properties: { a: s } };
  return s;
}

/**
 * Creates the fuzz app (allowed `models`; tools decoded but never booting an OpenCode instance; 64 at once; 256 KiB
 * bodies), its key, and a mock that answers anything; returns the key.
 */
export async function openFuzzApp(fx: PatchbayFixture, name: string, models: string[]): Promise<string> {
  await fx.admin.createApp({ body: { name, models } });
  // maxTools 0: bodies with tools are decoded (and fuzz the decoder) but never create OpenCode instances.
  await fx.admin.updateApp({
    params: { name },
    body: { limits: { maxTools: 0, concurrency: 64, maxBodyBytes: 256 * 1024 } },
  });
  fx.mock.setResponder(() => ({ text: "fuzz ok" }));
  return (await fx.admin.createKey({ params: { name }, body: { label: "fuzz" } })).key;
}

/** Answers counted by category and status (printed as diagnostics). */
export class StatusTally {
  readonly byCategory: Record<string, Record<number, number>> = {};
  sent = 0;

  count(category: string, status: number): void {
    this.sent++;
    const t = (this.byCategory[category] ??= {});
    t[status] = (t[status] ?? 0) + 1;
  }
}

/**
 * Runs `check` on `numRuns` generated values with the run's seed; a value for which it returns a failure text fails
 * the property, and the error names the property, the seed and that text.
 */
export async function runProperty<T>(
  name: string,
  arb: fc.Arbitrary<T>,
  numRuns: number,
  check: (v: T) => Promise<string | null>,
): Promise<void> {
  const failures: string[] = [];
  await fc
    .assert(
      fc.asyncProperty(arb, async (v) => {
        const problem = await check(v);
        if (problem) failures.push(problem);
        return problem === null;
      }),
      { seed: FUZZ_SEED, numRuns, endOnFailure: true },
    )
    .catch((err: unknown) => {
      throw new Error(`${name} (seed ${FUZZ_SEED}): ${failures[0] ?? ""}\n${String(err).slice(0, 3000)}`);
    });
}
