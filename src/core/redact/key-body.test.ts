import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readPrivateKeyBody } from "./key-body.ts";
import { redactText, redactValue } from "./redact.ts";

// Issue #21 break 8: private key bodies pasted without their BEGIN/END lines. The keys are real, generated at run
// time (nothing is committed); the OpenSSH one is built in the `openssh-key-v1` format by hand (node:crypto cannot
// write it; `ssh-keygen -y` reads what openSshBody makes).

const stripMarkers = (pem: string): string =>
  pem
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("-----"))
    .join("\n");
const pkcs8 = (key: KeyObject): string => key.export({ type: "pkcs8", format: "pem" }).toString();

const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
const KEYS: Record<string, string> = {
  "RSA 2048 PKCS#1": rsa.privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
  "RSA 2048 PKCS#8": pkcs8(rsa.privateKey),
  "RSA 2048 PKCS#8 encrypted": rsa.privateKey
    .export({ type: "pkcs8", format: "pem", cipher: "aes-256-cbc", passphrase: "ctx-test" })
    .toString(),
  "EC P-256 SEC1": ec.privateKey.export({ type: "sec1", format: "pem" }).toString(),
  "EC P-256 PKCS#8": pkcs8(ec.privateKey),
  "Ed25519 PKCS#8": pkcs8(generateKeyPairSync("ed25519").privateKey),
  "DSA 2048 PKCS#8": pkcs8(generateKeyPairSync("dsa", { modulusLength: 2048, divisorLength: 256 }).privateKey),
  OpenSSH: openSshKey(),
};
const BODIES = Object.entries(KEYS).map(([name, pem]) => [name, stripMarkers(pem)] as const);

/** Every 8-character piece of the body (line breaks removed): none may survive redaction. */
function leaks(body: string, redacted: string): string[] {
  const flat = body.replaceAll("\n", "");
  const pieces: string[] = [];
  for (let at = 0; at + 8 <= flat.length; at += 8) pieces.push(flat.slice(at, at + 8));
  return pieces.filter((piece) => redacted.includes(piece));
}

describe("a private key body without its BEGIN/END lines (break 8)", () => {
  it.each(BODIES)("%s is redacted whole in plain text, and the text around it stays", (_, body) => {
    const redacted = redactText(`Here is the key:\n${body}\nThanks, can you check it?`);
    expect(redacted.text).toBe("Here is the key:\n[REDACTED:private-key]\nThanks, can you check it?");
  });

  it.each(BODIES)("%s is redacted in a JSON string with \\n escapes and all on one line", (_, body) => {
    // Under a name that says nothing (a `private_key` name is a secret of its own, tested below).
    const json = JSON.stringify({ note: "pasted", value: `${body}\n` });
    expect(redactText(json).text).toBe('{"note":"pasted","value":"[REDACTED:private-key]\\n"}');
    const oneLine = `key=${body.replaceAll("\n", "")} done`;
    expect(redactText(oneLine).text).toBe("key=[REDACTED:private-key] done");
  });

  it.each(BODIES)("%s is redacted inside a transcript line's tool result, also as a Read result", (_, body) => {
    const numbered = body
      .split("\n")
      .map((line, index) => `${String(index + 1).padStart(6)}\u2192${line}`)
      .join("\n");
    for (const content of [`$ cat key.b64\n${body}\n`, numbered]) {
      const line = JSON.stringify({
        type: "user",
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01", content }] },
      });
      const redacted = redactText(line);
      expect(redacted.findings.map((finding) => finding.kind)).toEqual(["private-key"]);
      expect(leaks(body, redacted.text)).toEqual([]);
      expect(redactText(redacted.text).text).toBe(redacted.text); // idempotent
    }
  });

  it("redacts a GCP service-account file without the key's BEGIN/END lines, and its private_key_id", () => {
    const keyId = "3f1e0c5a9b7d2e4f6a8c0b1d3e5f7a9c2b4d6e8f";
    const account = {
      type: "service_account",
      project_id: "ctx-fake-project",
      private_key_id: keyId,
      private_key: `${stripMarkers(KEYS["RSA 2048 PKCS#8"] ?? "")}\n`,
      client_email: "ctx-fake@ctx-fake-project.iam.gserviceaccount.com",
    };
    const file = JSON.stringify(account, null, 2);
    const redacted = redactText(file);
    expect(JSON.parse(redacted.text)).toEqual({
      ...account,
      private_key_id: "[REDACTED:secret]",
      private_key: "[REDACTED:private-key]\n",
    });
    // Read through a transcript (JSON inside JSON) and as parsed data.
    const line = JSON.stringify({ type: "user", message: { content: [{ type: "tool_result", content: file }] } });
    const inLine = redactText(line).text;
    expect(inLine).not.toContain(keyId);
    expect(leaks(account.private_key, inLine)).toEqual([]);
    expect(redactValue(account).value).toMatchObject({ private_key_id: "[REDACTED:secret-field]" });
  });

  it("redacts a private_key_id in YAML and .env forms, and leaves other key ids alone", () => {
    const id = "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567";
    expect(redactText(`private_key_id: ${id}\n`).text).toBe("private_key_id: [REDACTED:secret]\n");
    expect(redactText(`GCP_PRIVATE_KEY_ID=${id}\n`).text).toBe("GCP_PRIVATE_KEY_ID=[REDACTED:secret]\n");
    expect(redactText(`{"privateKeyId": "${id}"}`).text).toBe('{"privateKeyId": "[REDACTED:secret]"}');
    for (const text of [`"key_id": "${id}"`, `api_key_id: ${id}\n`, `"public_key_id": "${id}"`]) {
      expect(redactText(text).findings).toEqual([]);
    }
  });
});

describe("base64 that is not a private key stays", () => {
  it("leaves certificates, CSRs, public keys and DH parameters without their lines alone", () => {
    const text = readFileSync(
      new URL("../../../tests/fixtures/redaction/clean/public-key-material.txt", import.meta.url),
      "utf8",
    );
    expect(text).toContain("MIID"); // the fixture holds a certificate body
    expect(redactText(text).findings).toEqual([]);
    const spki = stripMarkers(rsa.publicKey.export({ type: "spki", format: "pem" }).toString());
    const pkcs1 = stripMarkers(rsa.publicKey.export({ type: "pkcs1", format: "pem" }).toString());
    expect(redactText(`${spki}\n\n${pkcs1}\n`).findings).toEqual([]);
  });

  it("leaves a SEQUENCE header followed by noise, random blobs and integrity hashes alone", () => {
    let state = 7;
    const noise = (n: number): Buffer => {
      const bytes = Buffer.alloc(n);
      for (let i = 0; i < n; i += 1) {
        state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
        bytes[i] = state >>> 24;
      }
      return bytes;
    };
    const wrap = (base64: string): string => (base64.match(/.{1,64}/g) ?? []).join("\n");
    const sequenceThenNoise = wrap(
      Buffer.concat([Buffer.from([0x30, 0x82, 0x04, 0xbd]), noise(1213)]).toString("base64"),
    );
    expect(sequenceThenNoise.startsWith("MIIEv")).toBe(true); // the same first characters as a PKCS#8 RSA key
    expect(redactText(sequenceThenNoise).findings).toEqual([]);
    expect(redactText(wrap(noise(3000).toString("base64"))).findings).toEqual([]);
    const integrity = `integrity sha512-${noise(64).toString("base64")}`;
    expect(redactText(integrity).findings).toEqual([]);
  });

  it("reads the structure, not the shape: a one-byte change in the version is no longer a key", () => {
    const der = Buffer.from(stripMarkers(KEYS["RSA 2048 PKCS#8"] ?? "").replaceAll("\n", ""), "base64");
    expect(readPrivateKeyBody(der.toString("base64"))).not.toBeNull();
    der[6] = 2; // INTEGER 0 (the PrivateKeyInfo version) becomes INTEGER 2
    expect(readPrivateKeyBody(der.toString("base64"))).toBeNull();
  });
});

/** An unencrypted OpenSSH Ed25519 private key in the `openssh-key-v1` format (PROTOCOL.key), as ssh-keygen writes it. */
function openSshKey(): string {
  const u32 = (n: number): Buffer => {
    const buffer = Buffer.alloc(4);
    buffer.writeUInt32BE(n);
    return buffer;
  };
  const field = (data: Buffer | string): Buffer => Buffer.concat([u32(Buffer.byteLength(data)), Buffer.from(data)]);
  const jwk = generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" });
  const seed = Buffer.from(jwk.d ?? "", "base64url");
  const publicKey = Buffer.from(jwk.x ?? "", "base64url");
  const publicBlob = Buffer.concat([field("ssh-ed25519"), field(publicKey)]);
  const check = u32(0x2f1c_3a5b);
  let secret = Buffer.concat([
    check,
    check,
    field("ssh-ed25519"),
    field(publicKey),
    field(Buffer.concat([seed, publicKey])),
    field("ctx-test"),
  ]);
  const padding = Array.from({ length: (8 - (secret.length % 8)) % 8 }, (_, i) => i + 1);
  secret = Buffer.concat([secret, Buffer.from(padding)]);
  const body = Buffer.concat([
    Buffer.from("openssh-key-v1\0"),
    field("none"),
    field("none"),
    field(""),
    u32(1),
    field(publicBlob),
    field(secret),
  ]).toString("base64");
  const lines = body.match(/.{1,70}/g) ?? [];
  return ["-----BEGIN OPENSSH PRIVATE KEY-----", ...lines, "-----END OPENSSH PRIVATE KEY-----", ""].join("\n");
}
