import { testFlagOf } from "../approval-record"

describe("an approval's test flag", () => {
  it.each([
    [{ x_test: "true" }, false, true],
    [{ x_test: " TRUE " }, false, true],
    [{ x_test: "false" }, true, false],
    // Rows from before the signed result was kept: today's settings.
    [null, true, true],
    [{}, false, false],
  ])("signed %j, settings %s → %s", (signed, settings, flag) => {
    expect(testFlagOf({ lender_result: signed as Record<string, string> | null }, settings)).toBe(flag)
  })
})
