// american-english ships no types (and is CommonJS: its default export is the module object); only the table ctx
// reads is declared.
declare module "american-english" {
  const americanEnglish: {
    /** British spelling (lower case) -> American spelling; some values carry a trailing space. */
    us_spelling: Readonly<Record<string, string>>;
  };
  export default americanEnglish;
}
