import { SecretBox, SETTINGS_KEY_ENV } from "../secret-box"

const KEY = "k".repeat(44)

describe("secrets saved in the admin", () => {
  it("round-trips a secret and never stores it in clear", () => {
    const box = new SecretBox(KEY)
    const sealed = box.encrypt("sim_test_token", "pp_paybright_paybright:apiToken")
    expect(sealed).not.toContain("sim_test_token")
    expect(box.encrypt("sim_test_token", "pp_paybright_paybright:apiToken")).not.toBe(sealed)
    expect(box.decrypt(sealed, "pp_paybright_paybright:apiToken")).toBe("sim_test_token")
  })

  it("refuses another key, another option, or an altered value", () => {
    const sealed = new SecretBox(KEY).encrypt("sim_test_token", "pp_paybright_paybright:apiToken")
    expect(() => new SecretBox("x".repeat(44)).decrypt(sealed, "pp_paybright_paybright:apiToken")).toThrow()
    expect(() => new SecretBox(KEY).decrypt(sealed, "pp_paybright_paybright:cardProcessorSecretKey")).toThrow()
    const [format, nonce, tag, body] = sealed.split(":")
    const altered = [format, nonce, tag, Buffer.from("another").toString("base64") + body].join(":")
    expect(() => new SecretBox(KEY).decrypt(altered, "pp_paybright_paybright:apiToken")).toThrow()
  })

  it("refuses a value whose authentication tag was shortened, though a short tag is a prefix of the right one", () => {
    const box = new SecretBox(KEY)
    const sealed = box.encrypt("sim_test_token", "pp_paybright_paybright:apiToken")
    const [format, nonce, tag, body] = sealed.split(":")
    for (const bytes of [4, 8, 12, 15]) {
      const shortened = Buffer.from(tag, "base64").subarray(0, bytes).toString("base64")
      expect(() => box.decrypt([format, nonce, shortened, body].join(":"), "pp_paybright_paybright:apiToken")).toThrow()
    }
    expect(box.decrypt(sealed, "pp_paybright_paybright:apiToken")).toBe("sim_test_token")
  })

  it("says why secrets cannot be saved without a long enough key in the environment", () => {
    const missing = SecretBox.fromEnvironment({})
    expect("unavailable" in missing && missing.unavailable).toContain(SETTINGS_KEY_ENV)
    const short = SecretBox.fromEnvironment({ [SETTINGS_KEY_ENV]: "short" })
    expect("unavailable" in short && short.unavailable).toContain("shorter than 32")
    expect("box" in SecretBox.fromEnvironment({ [SETTINGS_KEY_ENV]: KEY })).toBe(true)
  })
})
