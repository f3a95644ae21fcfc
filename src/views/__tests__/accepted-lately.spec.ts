import { acceptedLately } from "../accepted-lately"

describe("a credentials verdict between the settings page's check and its save", () => {
  const at = Date.parse("2026-11-25T12:00:00Z")

  it("asks once for the same credentials within two minutes, and again after", async () => {
    const verdict = {
      accepted: true,
      message: "PayBright (sandbox) accepted the API key and token.",
      code: "credentials_accepted",
      values: { environment: "sandbox" },
    }
    const test = jest.fn(async () => verdict)
    const credentials = ["lender", "https://sandbox.api.paybright.com", "key", "token-a"]
    await expect(acceptedLately(credentials, test, at)).resolves.toMatchObject({ accepted: true })
    // The verdict comes back whole: the admin writes the save's confirmation from its facts.
    await expect(acceptedLately(credentials, test, at + 60_000)).resolves.toEqual(verdict)
    expect(test).toHaveBeenCalledTimes(1)
    await acceptedLately(credentials, test, at + 2 * 60_000)
    expect(test).toHaveBeenCalledTimes(2)
  })

  it("asks again for other credentials, and after every refusal", async () => {
    const refuse = jest.fn(async () => ({
      accepted: false,
      message: "PayBright did not accept this API key and token",
    }))
    const credentials = ["lender", "https://sandbox.api.paybright.com", "key", "token-b"]
    await expect(acceptedLately(credentials, refuse, at)).resolves.toMatchObject({ accepted: false })
    await expect(acceptedLately(credentials, refuse, at + 1_000)).resolves.toMatchObject({ accepted: false })
    expect(refuse).toHaveBeenCalledTimes(2)
    const accept = jest.fn(async () => ({ accepted: true, message: "accepted" }))
    await acceptedLately([...credentials.slice(0, 3), "token-c"], accept, at)
    await acceptedLately([...credentials.slice(0, 3), "token-d"], accept, at)
    expect(accept).toHaveBeenCalledTimes(2)
  })
})
