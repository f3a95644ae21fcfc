import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto"
import type { PayBrightSettingsFacts } from "./admin-types"

/** The environment variable holding the key that encrypts secrets saved in the admin. */
export const SETTINGS_KEY_ENV = "PAYBRIGHT_SETTINGS_KEY"
/** Short keys are refused: `openssl rand -base64 32` gives one of 44 characters. */
export const MIN_KEY_LENGTH = 32
const FORMAT = "v1"
/** GCM's full tag: a shorter one is a prefix of the right tag and would verify with far less work to forge. */
const TAG_BYTES = 16

/**
 * Encrypts and decrypts the secrets the merchant saves in the admin (API token, card processor
 * key) with AES-256-GCM: a fresh 12-byte nonce per value, and the provider id and option name as
 * associated data, so a ciphertext copied onto another option or provider does not decrypt.
 */
export class SecretBox {
  private readonly key: Buffer

  constructor(secret: string) {
    // Any long random string works: its SHA-256 is the 256-bit key.
    this.key = createHash("sha256").update(secret, "utf8").digest()
  }

  /**
   * The box for the key in the environment, or why there is none: `fact` says what is wrong with
   * the variable, `unavailable` tells the merchant on the settings page what to do (in English;
   * `facts` for the admin to say it in the merchant's language).
   */
  static fromEnvironment(
    env: NodeJS.ProcessEnv = process.env
  ): { box: SecretBox } | { unavailable: string; fact: string; facts: PayBrightSettingsFacts } {
    const secret = env[SETTINGS_KEY_ENV]?.trim()
    if (!secret) {
      return {
        fact: `this process has no ${SETTINGS_KEY_ENV}`,
        facts: { code: "key_missing", values: { variable: SETTINGS_KEY_ENV } },
        unavailable: `Secrets cannot be saved from the admin: the server has no ${SETTINGS_KEY_ENV} environment variable to encrypt them with. Set it (e.g. openssl rand -base64 32) on every server and worker, then restart.`,
      }
    }
    if (secret.length < MIN_KEY_LENGTH) {
      return {
        fact: `this process's ${SETTINGS_KEY_ENV} is shorter than ${MIN_KEY_LENGTH} characters`,
        facts: { code: "key_short", values: { variable: SETTINGS_KEY_ENV, min: MIN_KEY_LENGTH } },
        unavailable: `Secrets cannot be saved from the admin: ${SETTINGS_KEY_ENV} is shorter than ${MIN_KEY_LENGTH} characters. Use a long random value (e.g. openssl rand -base64 32).`,
      }
    }
    return { box: new SecretBox(secret) }
  }

  encrypt(plain: string, context: string): string {
    const nonce = randomBytes(12)
    const cipher = createCipheriv("aes-256-gcm", this.key, nonce, { authTagLength: TAG_BYTES })
    cipher.setAAD(Buffer.from(context, "utf8"))
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()])
    return [FORMAT, nonce.toString("base64"), cipher.getAuthTag().toString("base64"), body.toString("base64")].join(":")
  }

  /** Throws when the value was encrypted with another key, for another context, or altered. */
  decrypt(sealed: string, context: string): string {
    const [format, nonce, tag, body] = sealed.split(":")
    if (format !== FORMAT || !nonce || !tag || body === undefined) {
      throw new Error("not a value encrypted by the PayBright settings")
    }
    const authTag = Buffer.from(tag, "base64")
    if (authTag.length !== TAG_BYTES) {
      throw new Error("not a value encrypted by the PayBright settings (its authentication tag is cut short)")
    }
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(nonce, "base64"), {
      authTagLength: TAG_BYTES,
    })
    decipher.setAAD(Buffer.from(context, "utf8"))
    decipher.setAuthTag(authTag)
    return Buffer.concat([decipher.update(Buffer.from(body, "base64")), decipher.final()]).toString("utf8")
  }
}
