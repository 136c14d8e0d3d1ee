// The package version, injected by tsup at build time; "0.0.0-dev" when run from source (tests).
declare const __CTX_VERSION__: string | undefined;

export const CTX_VERSION: string = typeof __CTX_VERSION__ === "string" ? __CTX_VERSION__ : "0.0.0-dev";
