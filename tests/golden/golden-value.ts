// The value stored in every tests/golden/v1-*.ctx file. Change it only together with the golden files
// (make-golden.ts --force): the golden test decodes each file to exactly this.
export const GOLDEN_VALUE = {
  kind: "ctx-golden",
  project: { root: "/home/dev/projects/demo", name: "démo ✓ 日本語 🚀" },
  numbers: { zero: 0, small: 7, negative: -42, u16: 65_535, large: 2 ** 40, float: 3.25, tiny: -1.5e-7 },
  flags: [true, false, null],
  empty: { object: {}, array: [], text: "" },
  files: Array.from({ length: 12 }, (_, i) => ({
    path: `src/module-${i % 4}/file-${i}.ts`,
    bytes: 1_000 + i * 137,
    touchedAt: 1_767_225_600_000 + i * 60_000,
  })),
  messages: Array.from({ length: 6 }, (_, i) => ({
    role: i % 2 === 0 ? "user" : "assistant",
    text: `Message ${i}: keep the retry loop in src/net/client.ts, it guards against the flaky proxy. `.repeat(3),
  })),
  nested: { a: { b: { c: [1, [2, [3, { d: "deep" }]]] } } },
} as const;
