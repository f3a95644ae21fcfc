import { MathBN } from "@medusajs/framework/utils"
import { captureAmountFor, type OrderForCapture } from "../fulfillment-value"

// 3 lamps at 33.3333 each after a discount, with 13% tax: line total 113.00; a sofa 565.00; shipping 28.25.
const order = (fulfilled: Record<string, number>): OrderForCapture => ({
  items: [
    { id: "lamps", quantity: 3, total: "113.00" },
    { id: "sofa", quantity: 1, total: "565.00" },
  ],
  shippingTotal: "28.25",
  fulfilledQuantities: fulfilled,
})
const authorized = "706.25"

describe("capture amount for a fulfillment", () => {
  it("captures the parcel's items with shipping on the first capture", () => {
    expect(
      captureAmountFor(
        order({ sofa: 1 }),
        { items: [{ line_item_id: "sofa", quantity: 1 }] },
        { authorized, captured: 0 }
      )
    ).toBe("593.25")
  })

  it("leaves the shipping out of a payment the contract was carried into after it captured the shipping", () => {
    expect(
      captureAmountFor(
        order({ lamps: 2, sofa: 1 }),
        { items: [{ line_item_id: "lamps", quantity: 1 }] },
        { authorized: "75.34", captured: 0, capturedBefore: "630.92" }
      )
    ).toBe("37.67")
  })

  it("rounds each share to the cent and lets the last parcel take exactly what remains", () => {
    const first = captureAmountFor(
      order({ lamps: 1 }),
      { items: [{ line_item_id: "lamps", quantity: 1 }] },
      { authorized, captured: 0 }
    )
    expect(first).toBe("65.92") // 37.666… rounds to 37.67, plus shipping 28.25
    const second = captureAmountFor(
      order({ lamps: 2 }),
      { items: [{ line_item_id: "lamps", quantity: 1 }] },
      { authorized, captured: first }
    )
    expect(second).toBe("37.67")
    const last = captureAmountFor(
      order({ lamps: 3, sofa: 1 }),
      {
        items: [
          { line_item_id: "lamps", quantity: 1 },
          { line_item_id: "sofa", quantity: 1 },
        ],
      },
      { authorized, captured: "103.59" }
    )
    expect(last).toBe("602.66")
    expect(MathBN.add(first, second, last).toFixed(2)).toBe(authorized)
  })

  it("never captures more than remains authorized, and nothing once all is captured", () => {
    expect(
      captureAmountFor(
        order({ sofa: 1 }),
        { items: [{ line_item_id: "sofa", quantity: 1 }] },
        { authorized, captured: "700.00" }
      )
    ).toBe("6.25")
    expect(
      captureAmountFor(
        order({ sofa: 1 }),
        { items: [{ line_item_id: "sofa", quantity: 1 }] },
        { authorized, captured: authorized }
      )
    ).toBe("0.00")
  })

  it("never captures more than the order's current total minus what was captured, whatever was authorized", () => {
    // An edit took the sofa's price down to 500.00: the order is now worth 641.25, the authorization still 706.25.
    const edited = { ...order({ lamps: 3, sofa: 1 }), total: "641.25" }
    expect(
      captureAmountFor(edited, { items: [{ line_item_id: "sofa", quantity: 1 }] }, { authorized, captured: "141.25" })
    ).toBe("500.00")
  })

  it("caps a payment the contract was carried into at what the order owes, whatever Medusa opened it for", () => {
    // 666.70 captured on the earlier payment; an edit took a lamp off (the order now 742.033258), but
    // was confirmed before Medusa booked that capture, so the new collection (and the carried
    // payment) asks for all the contract covers, 113.00. The last parcel captures what is owed, in
    // whole cents: it is not all that remains of the payment.
    const carried: OrderForCapture = {
      items: [
        { id: "lamps", quantity: 2, total: "75.333258" },
        { id: "sofa", quantity: 1, total: "638.45" },
      ],
      shippingTotal: "28.25",
      fulfilledQuantities: { lamps: 2, sofa: 1 },
      total: "742.033258",
      paid: "666.70",
    }
    expect(
      captureAmountFor(
        carried,
        { items: [{ line_item_id: "lamps", quantity: 2 }] },
        { authorized: "113.00", captured: "0", capturedBefore: "666.70" }
      )
    ).toBe("75.33")
  })

  it("takes the payment's exact remainder where the order owes less by a fraction of a cent", () => {
    // The lender moves cents: 75.335 owed rounds to the payment's 75.34, which is all it holds.
    const owing = { ...order({ lamps: 3, sofa: 1 }), total: "741.035", paid: "665.70" }
    expect(
      captureAmountFor(
        owing,
        { items: [{ line_item_id: "lamps", quantity: 3 }] },
        { authorized: "75.336", captured: "0", capturedBefore: "665.70" }
      )
    ).toBe("75.336")
  })

  it("counts refunds as paid back: after a returned sofa, the lamps are captured whole", () => {
    // The sofa and the shipping captured (666.70), the sofa returned and refunded (638.45): the order
    // is worth 141.25 and holds 28.25; the lamps still owe 113.00.
    const returned = { ...order({ lamps: 3, sofa: 1 }), total: "141.25", paid: "28.25" }
    // Counting the earlier payment's captures alone (666.70) would leave nothing to capture.
    expect(
      captureAmountFor(
        returned,
        { items: [{ line_item_id: "lamps", quantity: 3 }] },
        { authorized: "113.00", captured: "0", capturedBefore: "666.70" }
      )
    ).toBe("113.00")
  })
})

describe("capture amount for a fulfillment of a taxed order (GST + QST, 14.975 %)", () => {
  // A 349.99 sofa and a 9.66 lamp, with shipping 15.00 taxed too: Medusa's exact totals.
  const taxed = (fulfilled: Record<string, number>): OrderForCapture => ({
    items: [
      { id: "sofa", quantity: 1, total: "402.4010025" },
      { id: "lamp", quantity: 1, total: "11.106585" },
    ],
    shippingTotal: "17.24625",
    fulfilledQuantities: fulfilled,
    total: "430.7538375",
  })
  const authorized = "430.7538375"

  it("values a parcel in cents and leaves the exact remainder to the last one", () => {
    const first = captureAmountFor(
      taxed({ sofa: 1 }),
      { items: [{ line_item_id: "sofa", quantity: 1 }] },
      { authorized, captured: 0 }
    )
    expect(first).toBe("419.65") // 402.40 + 17.25
    const last = captureAmountFor(
      taxed({ sofa: 1, lamp: 1 }),
      { items: [{ line_item_id: "lamp", quantity: 1 }] },
      { authorized, captured: first }
    )
    expect(last).toBe("11.1038375")
    expect(MathBN.add(first, last).eq(authorized)).toBe(true)
  })

  it("captures the whole exact total in one parcel", () => {
    expect(
      captureAmountFor(
        taxed({ sofa: 1, lamp: 1 }),
        {
          items: [
            { line_item_id: "sofa", quantity: 1 },
            { line_item_id: "lamp", quantity: 1 },
          ],
        },
        { authorized, captured: 0 }
      )
    ).toBe(authorized)
  })

  it("finds nothing to capture once the lender's cents are all captured", () => {
    expect(
      captureAmountFor(
        { ...taxed({ sofa: 1, lamp: 1 }), total: "100.0040" },
        { items: [{ line_item_id: "lamp", quantity: 1 }] },
        { authorized: "100.0040", captured: "100.00" }
      )
    ).toBe("0.00")
  })
})
