import { describe, expect, it } from "vitest";
import { stemEnglish } from "./english-stem.ts";

// Examples from Porter's paper and the reference implementation's vocabulary.
const CASES: Record<string, string> = {
  caresses: "caress",
  ponies: "poni",
  ties: "ti",
  caress: "caress",
  cats: "cat",
  feed: "feed",
  agreed: "agre",
  plastered: "plaster",
  bled: "bled",
  motoring: "motor",
  sing: "sing",
  conflated: "conflat",
  troubled: "troubl",
  sized: "size",
  hopping: "hop",
  tanned: "tan",
  falling: "fall",
  hissing: "hiss",
  fizzed: "fizz",
  failing: "fail",
  filing: "file",
  happy: "happi",
  sky: "sky",
  relational: "relat",
  conditional: "condit",
  rational: "ration",
  valenci: "valenc",
  digitizer: "digit",
  conformabli: "conform",
  radicalli: "radic",
  differentli: "differ",
  vileli: "vile",
  analogousli: "analog",
  vietnamization: "vietnam",
  predication: "predic",
  operator: "oper",
  feudalism: "feudal",
  decisiveness: "decis",
  hopefulness: "hope",
  callousness: "callous",
  formaliti: "formal",
  sensitiviti: "sensit",
  sensibiliti: "sensibl",
  triplicate: "triplic",
  formative: "form",
  formalize: "formal",
  electriciti: "electr",
  electrical: "electr",
  hopeful: "hope",
  goodness: "good",
  revival: "reviv",
  allowance: "allow",
  inference: "infer",
  airliner: "airlin",
  gyroscopic: "gyroscop",
  adjustable: "adjust",
  defensible: "defens",
  irritant: "irrit",
  replacement: "replac",
  adjustment: "adjust",
  dependent: "depend",
  adoption: "adopt",
  homologous: "homolog",
  communism: "commun",
  activate: "activ",
  angulariti: "angular",
  effective: "effect",
  bowdlerize: "bowdler",
  probate: "probat",
  rate: "rate",
  cease: "ceas",
  controll: "control",
  roll: "roll",
  generalizations: "gener",
  oscillators: "oscil",
};

describe("stemEnglish", () => {
  it("follows the Porter algorithm", () => {
    for (const [word, stem] of Object.entries(CASES)) expect([word, stemEnglish(word)]).toEqual([word, stem]);
  });

  it("conflates inflections of one word", () => {
    expect(new Set(["paint", "paints", "painted", "painting"].map(stemEnglish))).toEqual(new Set(["paint"]));
    expect(stemEnglish("tests")).toBe(stemEnglish("testing"));
  });

  it("leaves short words, digits, capitals and other scripts alone", () => {
    for (const word of ["is", "as", "v8", "http2", "Running", "ünïcode", "日本語", "1234", ""]) {
      expect(stemEnglish(word)).toBe(word);
    }
  });
});
