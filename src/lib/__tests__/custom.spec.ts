import path from "node:path"
import { cardProcessorConfigSchema, createCardProcessor } from "../card-processors"

describe("a store's own card processor", () => {
  it("is loaded from its module path with its options", async () => {
    const config = cardProcessorConfigSchema.parse({
      type: "custom",
      resolve: path.join(__dirname, "fixtures/ledger-processor.js"),
      options: { prefix: "shop" },
    })
    const processor = createCardProcessor(config)
    expect(processor.name).toBe("ledger")
    const charged = await processor.charge({
      card: {
        pan: "4242424242424242",
        cvv: "123",
        expiration: "0130",
        cardholderName: "P",
        billingAddress: { address1: "", city: "", state: "", postal_code: "", country: "CAN" },
      },
      amount: "12.00",
      currency: "CAD",
      idempotencyKey: "cap_1",
      description: "",
      metadata: {},
    })
    expect(charged).toEqual({ chargeId: "shop-cap_1", amount: "12.00" })
  })

  it("is refused at boot when the module is not a processor", () => {
    const config = cardProcessorConfigSchema.parse({
      type: "custom",
      resolve: path.join(__dirname, "fixtures/not-a-processor.js"),
    })
    expect(() => createCardProcessor(config)).toThrow(/does not export a CardProcessor/)
  })
})
