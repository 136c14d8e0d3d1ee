import { describe, expect, it } from "vitest";
import { redactText } from "./redact.ts";

const redacted = (text: string): string => redactText(text).text;

describe("passwords marked by syntax (break 5 and the scanner kinds)", () => {
  it.each([
    ["redis-cli -h cache -p 6379 -a Hunter2Redis ping", "redis-cli -h cache -p 6379 -a [REDACTED:password] ping"],
    ["sshpass -p 'S3cretPass!' ssh deploy@host", "sshpass -p '[REDACTED:password]' ssh deploy@host"],
    ["sshpass -pS3cretPass ssh deploy@host", "sshpass -p[REDACTED:password] ssh deploy@host"],
    ["ldapsearch -x -D cn=admin -w Ld4pPass -b dc=x", "ldapsearch -x -D cn=admin -w [REDACTED:password] -b dc=x"],
    ["openssl pkcs12 -export -passout pass:P12pass9", "openssl pkcs12 -export -passout pass:[REDACTED:password]"],
    ["smbclient //fs/share -U backup%Smb9Pass", "smbclient //fs/share -U backup%[REDACTED:password]"],
    ["htpasswd -nb admin Adm1nPass && ls", "htpasswd -nb admin [REDACTED:password] && ls"],
    ["mysql -u root -p'My5qlPass' app", "mysql -u root -p'[REDACTED:password]' app"],
  ])("%s", (text, expected) => {
    expect(redacted(text)).toBe(expected);
  });

  it("takes the value after 'my password is' when it looks like a password, not a word", () => {
    expect(redacted("my password is hunter22, sorry")).toBe("my password is [REDACTED:password], sorry");
    expect(redacted("The password for the staging db is now Tr0ub4dor&3.")).toBe(
      "The password for the staging db is now [REDACTED:password].",
    );
    expect(redacted('the password is "correcthorse" today')).toBe('the password is "[REDACTED:password]" today');
    for (const prose of [
      "the password is required",
      "the password is case-sensitive.",
      "the password is stored in `process.env.DB_PASSWORD`",
      "the password is 8+ characters",
      "the password is ~/.pgpass",
      "your password was changed to meet the policy",
    ]) {
      expect(redacted(prose)).toBe(prose);
    }
  });

  it("reads .pgpass lines and docker auth, not times, MAC addresses or placeholders", () => {
    expect(redacted("db.internal:5432:app:app_user:Pg9Pass!x")).toBe(
      "db.internal:5432:app:app_user:[REDACTED:password]",
    );
    const auth = Buffer.from("deploy:Pa55word99").toString("base64");
    expect(redacted(`{"auths":{"ghcr.io":{"auth":"${auth}"}}}`)).toBe(
      '{"auths":{"ghcr.io":{"auth":"[REDACTED:basic-auth]"}}}',
    );
    for (const text of ["12:30:45:00:12 01:23:45:67:89:ab", "localhost:5432:*:postgres:*", `{"auth":"YWRtaW4="}`]) {
      expect(redacted(text)).toBe(text);
    }
  });

  it("redacts password hashes (htpasswd, shadow, bcrypt) and keeps regex replacement strings", () => {
    expect(redacted(`admin:${"$apr1$"}abcd1234$abcdefghijklmnopqrstuv`)).toBe("admin:[REDACTED:password-hash]");
    expect(redacted('s.replace(/(a)(b)/, "$2$1")')).toBe('s.replace(/(a)(b)/, "$2$1")');
  });

  it("reads Rails' SECRET_KEY_BASE as a secret name", () => {
    expect(redacted("SECRET_KEY_BASE=Zq8Xw7Vu6Ts5Rq4Po3Nm2Lk1Jh0Gf9Ed8Cb7Axy12Ab==")).toBe(
      "SECRET_KEY_BASE=[REDACTED:secret]",
    );
  });
});
