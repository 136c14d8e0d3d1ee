// Vendor token formats beyond the big clouds and code hosts, after the rule kinds of the public gitleaks and
// detect-secrets rule sets (chat webhooks and bots, mail and payment APIs, secret managers, CI and registry tokens,
// age keys). The regexes are ours, written from each vendor's documented token shape.
//
// Every pattern starts with a literal prefix (or has a `trigger`), a look-behind so a run of token characters starts
// one attempt at most, and bounded repetitions: linear on any input.

import { hasUpperLowerDigit, notRepetitive, type PatternRule, vendor } from "./pattern-rule.ts";
import { PRIORITY } from "./values.ts";

const hasLetterAndDigit = (s: string): boolean => /\d/.test(s) && /[A-Za-z]/.test(s);

/** A Discord bot token starts with the bot's numeric id, base64-encoded: "MTA…" decodes to digits. */
function startsWithEncodedSnowflake(token: string): boolean {
  const id = token.slice(0, token.indexOf("."));
  try {
    return /^\d{17,20}$/.test(atob(id.padEnd(Math.ceil(id.length / 4) * 4, "=")));
  } catch {
    return false;
  }
}

export const VENDOR_RULES: readonly PatternRule[] = [
  // Chat
  vendor(
    "discord-webhook",
    /(discord(?:app)?\.com\/api\/(?:v\d{1,2}\/)?webhooks\/\d{17,20}\/)([A-Za-z0-9_-]{60,80})(?![A-Za-z0-9_-])/g,
  ),
  {
    kind: "discord-bot-token",
    priority: PRIORITY.vendor,
    pattern: /(?<![A-Za-z0-9_.-])[MNO][A-Za-z0-9]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_.-])/g,
    accept: (s) => notRepetitive(s) && startsWithEncodedSnowflake(s),
  },
  {
    kind: "telegram-bot-token",
    priority: PRIORITY.vendor,
    trigger: ":AA",
    // Also inside Bot API URLs: `https://api.telegram.org/bot<token>/sendMessage`.
    pattern: /(?:(?<=\/bot)|(?<![A-Za-z0-9_:-]))\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/g,
    accept: notRepetitive,
  },
  // Mail, SMS, payments
  vendor("twilio-api-key", /(?<![A-Za-z0-9_])SK[0-9a-f]{32}(?![A-Za-z0-9])/g, hasLetterAndDigit),
  vendor("mailgun-api-key", /(?<![A-Za-z0-9_-])key-[0-9a-f]{32}(?![A-Za-z0-9])/g, hasLetterAndDigit),
  {
    kind: "mailchimp-api-key",
    priority: PRIORITY.vendor,
    pattern: /(?<![A-Za-z0-9_-])[0-9a-f]{32}-us\d{1,2}(?![A-Za-z0-9])/g,
    accept: (s) => notRepetitive(s) && hasLetterAndDigit(s.slice(0, 32)),
  },
  vendor("brevo-api-key", /(?<![A-Za-z0-9_-])xkeysib-[0-9a-f]{64}-[A-Za-z0-9]{16}(?![A-Za-z0-9])/g),
  vendor("shopify-token", /(?<![A-Za-z0-9_])shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![A-Za-z0-9])/g),
  vendor("square-token", /(?<![A-Za-z0-9_-])sq0(?:atp|csp)-[A-Za-z0-9_-]{22,60}(?![A-Za-z0-9_-])/g),
  vendor("square-token", /(?<![A-Za-z0-9_-])EAAA[A-Za-z0-9_-]{60}(?![A-Za-z0-9_-])/g, hasUpperLowerDigit),
  vendor("flutterwave-key", /(?<![A-Za-z0-9_-])FLWSECK(?:_TEST)?-[a-h0-9]{32}-X(?![A-Za-z0-9])/g),
  // Cloud platforms and secret managers
  vendor("alibaba-access-key-id", /(?<![A-Za-z0-9])LTAI[A-Za-z0-9]{20}(?![A-Za-z0-9])/g, hasUpperLowerDigit),
  vendor("heroku-api-key", /(?<![A-Za-z0-9_-])HRKU-AA[A-Za-z0-9_-]{58}(?![A-Za-z0-9_-])/g),
  vendor("doppler-token", /(?<![A-Za-z0-9_.])dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}(?![A-Za-z0-9])/g),
  vendor("vault-token", /(?<![A-Za-z0-9_.-])hv[sbr]\.[A-Za-z0-9_-]{24,300}(?![A-Za-z0-9_-])/g, hasUpperLowerDigit),
  vendor("databricks-token", /(?<![A-Za-z0-9_])dapi[0-9a-f]{32}(?:-\d)?(?![A-Za-z0-9])/g, hasLetterAndDigit),
  vendor("cloudflare-origin-ca-key", /(?<![A-Za-z0-9_.])v1\.0-[0-9a-f]{24}-[0-9a-f]{146}(?![A-Za-z0-9])/g),
  vendor("supabase-token", /(?<![A-Za-z0-9_])sbp_[0-9a-f]{40}(?![A-Za-z0-9])/g),
  vendor("netlify-token", /(?<![A-Za-z0-9_])nfp_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g, hasLetterAndDigit),
  vendor("render-api-key", /(?<![A-Za-z0-9_])rnd_[A-Za-z0-9]{32}(?![A-Za-z0-9])/g, hasUpperLowerDigit),
  vendor("planetscale-token", /(?<![A-Za-z0-9_])pscale_(?:tkn|oauth|pw)_[A-Za-z0-9_.=-]{32,64}/g, hasLetterAndDigit),
  {
    kind: "terraform-token",
    priority: PRIORITY.vendor,
    pattern: /(?<![A-Za-z0-9])[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}(?![A-Za-z0-9_=-])/g,
    accept: notRepetitive,
  },
  vendor("pulumi-token", /(?<![A-Za-z0-9_-])pul-[0-9a-f]{40}(?![A-Za-z0-9])/g, hasLetterAndDigit),
  vendor("gcp-refresh-token", /(?<![A-Za-z0-9_/])1\/\/0[A-Za-z0-9_-]{40,512}(?![A-Za-z0-9_-])/g, hasUpperLowerDigit),
  // Developer tools, CI, package registries
  vendor("docker-hub-token", /(?<![A-Za-z0-9_])dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,64}(?![A-Za-z0-9_-])/g),
  vendor("artifactory-token", /(?<![A-Za-z0-9])AKCp[0-9][A-Za-z0-9]{69}(?![A-Za-z0-9])/g),
  vendor("artifactory-token", /(?<![A-Za-z0-9])cmVmdGtuOjAxOj[A-Za-z0-9]{40,80}(?![A-Za-z0-9])/g),
  vendor("rubygems-api-key", /(?<![A-Za-z0-9_])rubygems_[0-9a-f]{48}(?![A-Za-z0-9])/g),
  vendor("nuget-api-key", /(?<![A-Za-z0-9_])oy2[a-z0-9]{43}(?![A-Za-z0-9])/g, hasLetterAndDigit),
  vendor("clojars-token", /(?<![A-Za-z0-9_])CLOJARS_[a-z0-9]{60}(?![A-Za-z0-9])/g, hasLetterAndDigit),
  vendor("sonarqube-token", /(?<![A-Za-z0-9_])sq[apu]_[0-9a-f]{40}(?![A-Za-z0-9])/g, hasLetterAndDigit),
  vendor("sentry-token", /(?<![A-Za-z0-9_])sntry[su]_[A-Za-z0-9+/=_-]{40,400}/g, hasUpperLowerDigit),
  vendor("grafana-token", /(?<![A-Za-z0-9_])glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}(?![A-Za-z0-9])/g),
  vendor("grafana-token", /(?<![A-Za-z0-9_])glc_[A-Za-z0-9+/]{32,400}={0,2}/g, hasUpperLowerDigit),
  vendor("postman-api-key", /(?<![A-Za-z0-9_-])PMAK-[0-9a-f]{24}-[0-9a-f]{34}(?![A-Za-z0-9])/g),
  vendor("new-relic-key", /(?<![A-Za-z0-9_-])NRAK-[A-Z0-9]{27}(?![A-Za-z0-9])/g),
  vendor("linear-api-key", /(?<![A-Za-z0-9_])lin_(?:api|oauth)_[A-Za-z0-9]{40}(?![A-Za-z0-9])/g, hasLetterAndDigit),
  vendor("atlassian-api-token", /(?<![A-Za-z0-9_-])AT[AC]TT3[A-Za-z0-9_=-]{150,250}(?![A-Za-z0-9_=-])/g),
  vendor("notion-token", /(?<![A-Za-z0-9_])ntn_[A-Za-z0-9]{40,50}(?![A-Za-z0-9])/g, hasLetterAndDigit),
  vendor("notion-token", /(?<![A-Za-z0-9_])secret_[A-Za-z0-9]{43}(?![A-Za-z0-9_])/g, hasUpperLowerDigit),
  vendor("figma-token", /(?<![A-Za-z0-9_])figd_[A-Za-z0-9_-]{40,64}(?![A-Za-z0-9_-])/g, hasLetterAndDigit),
  vendor("mapbox-secret-token", /(?<![A-Za-z0-9_.])sk\.eyJ[A-Za-z0-9_-]{20,300}\.[A-Za-z0-9_-]{20,100}/g),
  vendor("onepassword-token", /(?<![A-Za-z0-9_])ops_eyJ[A-Za-z0-9+/=_-]{100,4096}/g),
  vendor(
    "dropbox-token",
    /(?<![A-Za-z0-9_.])sl\.(?:u\.)?[A-Za-z0-9_-]{130,1500}(?![A-Za-z0-9_-])/g,
    hasUpperLowerDigit,
  ),
  vendor("adafruit-io-key", /(?<![A-Za-z0-9_])aio_[A-Za-z0-9]{28}(?![A-Za-z0-9])/g, hasUpperLowerDigit),
  vendor("prefect-token", /(?<![A-Za-z0-9_])pnu_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g, hasUpperLowerDigit),
  // Model providers not covered in patterns.ts
  vendor("groq-api-key", /(?<![A-Za-z0-9_])gsk_[A-Za-z0-9]{52}(?![A-Za-z0-9])/g, hasUpperLowerDigit),
  vendor("replicate-token", /(?<![A-Za-z0-9_])r8_[A-Za-z0-9]{37}(?![A-Za-z0-9])/g, hasUpperLowerDigit),
  vendor("xai-api-key", /(?<![A-Za-z0-9_-])xai-[A-Za-z0-9]{80}(?![A-Za-z0-9])/g, hasUpperLowerDigit),
  vendor("perplexity-api-key", /(?<![A-Za-z0-9_-])pplx-[A-Za-z0-9]{48}(?![A-Za-z0-9])/g, hasLetterAndDigit),
  // Keys and password hashes
  vendor("age-secret-key", /(?<![A-Za-z0-9-])AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}(?![A-Za-z0-9])/g),
];
