// Passwords marked by syntax rather than by a `name=` assignment: the password flags of common command-line clients
// (sshpass, redis-cli, ldapsearch, sqlcmd, mongosh, openssl, smbclient, htpasswd), a password stated in prose ("my
// password is …"), .pgpass lines, the `auth` of a docker config.json, and password hashes (htpasswd, shadow, bcrypt).
//
// Linear like every rule: each pattern starts with a literal word, the command's reach is bounded to one line, and the
// lazy gap before a flag stops at a pipe or a command separator.

import { decodesToUserAndPassword, notPlaceholder, type PatternRule } from "./pattern-rule.ts";
import { PRIORITY } from "./values.ts";

const VALUE = String.raw`[^\s"'\`\\]{1,256}`;
const OPTIONAL_QUOTE = String.raw`(?:\\{0,3}["'])?`;

/** `command … flag<separator>value` on one command line; the value may be quoted. */
function commandLineFlag(command: string, flag: string, separator: string): RegExp {
  return new RegExp(
    String.raw`(\b(?:${command})\b[^\n|;&]{0,200}?[ \t](?:${flag})${separator}${OPTIONAL_QUOTE})(?!-)(${VALUE})`,
    "g",
  );
}

const password = (pattern: RegExp, accept: PatternRule["accept"] = notPlaceholder): PatternRule => ({
  kind: "password",
  priority: PRIORITY.header,
  pattern,
  accept,
});

export const COMMAND_LINE_PASSWORD_RULES: readonly PatternRule[] = [
  password(commandLineFlag("sshpass", "-p", "[ \\t]*")),
  password(commandLineFlag("redis-cli|valkey-cli|keydb-cli", "-a|--pass", "[ \\t]+")),
  password(commandLineFlag("ldap(?:search|add|modify|delete|passwd|whoami|compare|modrdn)", "-w", "[ \\t]+")),
  password(commandLineFlag("sqlcmd|bcp", "-P", "[ \\t]*")),
  password(commandLineFlag("mongo(?:sh|dump|restore|import|export|stat|top)?", "-p", "[ \\t]+")),
  // openssl's `-passin pass:…`, `-passout pass:…`, `-pass pass:…`
  password(new RegExp(String.raw`(-(?:passin|passout|pass|password)[ \t]+${OPTIONAL_QUOTE}pass:)(${VALUE})`, "g")),
  // smbclient -U user%password
  password(
    new RegExp(
      String.raw`(\b(?:smbclient|rpcclient|smbmap|smbget|crackmapexec|nxc)\b[^\n|;&]{0,200}?[ \t](?:-U|--user)[ \t=]+${OPTIONAL_QUOTE}[^\s%"'\`\\]{1,100}%)(${VALUE})`,
      "g",
    ),
  ),
  // htpasswd -b[c] file user password, htpasswd -nb user password (-n prints instead of writing a file).
  password(
    new RegExp(
      String.raw`(\bhtpasswd[ \t]+-(?![A-Za-z]*n)(?=[A-Za-z]*b)[A-Za-z]{1,6}(?:[ \t]+[^\s-]\S{0,200}){2}[ \t]+)(${VALUE})`,
      "g",
    ),
  ),
  password(
    new RegExp(
      String.raw`(\bhtpasswd[ \t]+-(?=[A-Za-z]*n)(?=[A-Za-z]*b)[A-Za-z]{1,6}[ \t]+[^\s-]\S{0,200}[ \t]+)(${VALUE})`,
      "g",
    ),
  ),
];

/** Words that follow "password is" in ordinary prose and documentation, never a password. */
const PROSE_WORDS = /^(?:[a-z]+(?:-[a-z]+)*|[A-Z][a-z]+|\d{1,5}\+?|[a-z]+'[a-z]+)$/;

/**
 * The value after "password is": a quoted value is taken as written; an unquoted one must look like a password (a
 * digit, a symbol or mixed case), not a word ("is required", "is case-sensitive"), a path, a URL or a reference
 * to code (`process.env.DB_PASSWORD`).
 */
function acceptProsePassword(secret: string, text: string, _matchIndex: number, secretStart: number): boolean {
  if (secret.length < 4 || !notPlaceholder(secret)) return false;
  if (/^(?:[/~.$%<@#]|https?:|[a-z]+:\/\/)/.test(secret) || /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(secret))
    return false;
  if (/["'`“]/.test(text.charAt(secretStart - 1))) return true;
  return !PROSE_WORDS.test(secret) && /\d|[^A-Za-z0-9]|[a-z][A-Z]/.test(secret);
}

const PROSE_PASSWORD = new RegExp(
  String.raw`(\b(?:[Pp]ass(?:word|phrase|code)|PASSWORD|[Pp]asswd)(?:[ \t]+(?:for|of|to|on)(?:[ \t]+[^\s"'\`]{1,60}){1,4}?)?[ \t]+` +
    String.raw`(?:is now|is still|is|was|will be|has been (?:set|changed|reset) to|(?:set|changed|reset) to)[ \t]*:?[ \t]+["'\`“]?)` +
    String.raw`([^\s"'\`”\\]{1,127}[^\s"'\`”\\.,;:!?)\]])`,
  "g",
);

const HASH_CHARS = "[./A-Za-z0-9]";
const PASSWORD_HASH = new RegExp(
  [
    String.raw`\$2[abxy]?\$\d{2}\$${HASH_CHARS}{53}`, // bcrypt
    String.raw`\$(?:apr1|1)\$${HASH_CHARS}{1,8}\$${HASH_CHARS}{22}`, // md5-crypt, Apache htpasswd
    String.raw`\$[56]\$(?:rounds=\d{1,9}\$)?${HASH_CHARS}{1,16}\$${HASH_CHARS}{43,86}`, // sha-crypt (/etc/shadow)
    String.raw`\$y\$${HASH_CHARS}{1,20}\$${HASH_CHARS}{1,64}\$${HASH_CHARS}{43}`, // yescrypt
    String.raw`\$argon2(?:id|i|d)\$v=\d{1,3}\$m=\d{1,9},t=\d{1,4},p=\d{1,3}\$[A-Za-z0-9+/]{11,64}\$[A-Za-z0-9+/]{16,128}`,
  ].join("|"),
  "g",
);

/** The host before a .pgpass line (`host:port:database:user:password`): a name, an address or `*`, after a break. */
const PGPASS_HOST_BEFORE =
  /(?:^|\n|\\n|[\s"'`>])(?:\*|(?=[\d.-]{0,252}[A-Za-z.])[A-Za-z0-9][A-Za-z0-9.-]{0,252}|\[[0-9A-Fa-f:.]{2,45}\])$/;

/** "log in with user admin and password X": the value must pass the prose test. */
const USER_AND_PASSWORD = new RegExp(
  String.raw`(\b(?:[Uu]ser(?:name)?|[Ll]ogin)[ \t]+[^\s"'\`]{1,100}[ \t]+(?:and|&|,|\/)[ \t]+(?:the[ \t]+)?[Pp]assword[ \t]+["'\`“]?)` +
    String.raw`([^\s"'\`”\\]{1,127}[^\s"'\`”\\.,;:!?)\]])`,
  "g",
);

export const PROSE_AND_FILE_PASSWORD_RULES: readonly PatternRule[] = [
  password(PROSE_PASSWORD, acceptProsePassword),
  password(USER_AND_PASSWORD, acceptProsePassword),
  // .pgpass: hostname:port:database:username:password (a password of digits alone is more likely a time or a version).
  password(
    /(:(?:\d{2,5}|\*):[^\s:"'`\\]{1,63}:[^\s:"'`\\]{1,63}:)([^\s:"'`\\]{1,256})(?=$|\s|\\[nr"]|["'`])/g,
    (secret, text, matchIndex) =>
      notPlaceholder(secret) &&
      !/^[\d:.]+$/.test(secret) &&
      PGPASS_HOST_BEFORE.test(text.slice(Math.max(0, matchIndex - 260), matchIndex)),
  ),
  // ~/.docker/config.json: `"auth": "<base64 of user:password>"`, also JSON-escaped inside a transcript line.
  {
    kind: "basic-auth",
    priority: PRIORITY.header,
    pattern: /(\bauth\\{0,3}"[ \t]*:[ \t]*\\{0,3}")([A-Za-z0-9+/]{8,1024}={0,2})(?=\\{0,3}")/g,
    accept: decodesToUserAndPassword,
  },
  { kind: "password-hash", priority: PRIORITY.header, trigger: "$", pattern: PASSWORD_HASH },
  // htpasswd -s
  { kind: "password-hash", priority: PRIORITY.header, trigger: "{SHA}", pattern: /\{SHA\}[A-Za-z0-9+/]{27}=/g },
];
