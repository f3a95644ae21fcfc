import { orphanMessage, placementErrorOf } from "../approval-messages"
import { english } from "../texts/said"

describe("what the merchant reads of an approval the store could not place", () => {
  it("keeps the database's own words and leaves out the statement Medusa's data layer puts before them", () => {
    expect(
      placementErrorOf(
        'insert into "order" ("id", "region_id", "email") values ($1, $2, $3) - the database is refusing writes'
      )
    ).toBe("the database is refusing writes")
  })

  it("keeps any other answer whole, on one line, cut to a readable length", () => {
    expect(placementErrorOf("Timed-out acquiring lock.\nretry later")).toBe("Timed-out acquiring lock. retry later")
    expect(placementErrorOf("x".repeat(400))).toHaveLength(301)
  })

  it("says what the last attempt answered and what to do, with no void promised", () => {
    expect(
      english(
        orphanMessage({
          contract: "51325",
          amount: "310.73",
          currency_code: "CAD",
          reason: "not_placed",
          placement_error: "Timed-out acquiring lock.",
        })
      )
    ).toBe(
      "PayBright contract 51325 ($310.73 CAD) has no order: the store could not place its order within the grace period, though nothing about the cart refused it (its last attempt answered: Timed-out acquiring lock.). Cancel it in the PayBright portal, then mark it handled."
    )
  })
})
