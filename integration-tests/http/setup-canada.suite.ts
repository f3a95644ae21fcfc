import {
  createApiKeysWorkflow,
  createProductsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  createRegionsWorkflow,
  createShippingProfilesWorkflow,
  createStockLocationsWorkflow,
  createStoresWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
  createSalesChannelsWorkflow,
} from "@medusajs/core-flows"
import type { MedusaContainer, TaxRegionDTO } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { CANADIAN_SALES_TAX } from "../../src/scripts/setup-canada"
import { PAYBRIGHT_PROVIDER_ID } from "../../src/storefront/provider"
import type { AppSuite } from "../helpers/one-app"
import { medusaExec } from "../helpers/medusa-exec"

const SCRIPT = "./src/scripts/setup-canada.ts"

/**
 * The setup script a merchant runs with `medusa exec` in a store like Medusa's starter (a European
 * region in EUR, products priced in EUR and USD, a warehouse in Denmark): a separate process, as
 * the merchant's, against the store's database.
 */
export const setupCanada: AppSuite = {
  title: "the setup script, in a store like Medusa's starter",
  tests: ({ getContainer, dbConfig, api }) => {
    let starter: Awaited<ReturnType<typeof seedLikeTheStarter>>

    // Each test starts from the database as migrated, with nothing seeded.
    beforeEach(async () => {
      starter = await seedLikeTheStarter(getContainer())
    })

    const run = async (words: string[]) => {
      const exec = medusaExec(SCRIPT, dbConfig.clientUrl, { LOG_LEVEL: "info" }, words)
      const code = await exec.exited
      return { code, output: exec.output() }
    }

    it("refuses a word it does not know before the store boots, changing nothing", async () => {
      const { code, output } = await run(["system-provider", "colour=blue"])
      expect(code).not.toBe(0)
      expect(output).toMatch(/unknown word .{0,4}colour=blue/)
      // Medusa's modules never loaded: a booted store's local event bus says it is installed.
      expect(output).toContain("Executing script at")
      expect(output).not.toContain("Local Event Bus installed")
      expect(await regionsHolding(getContainer(), "ca")).toEqual([])
    })

    it("sets up Canada once: a CAD region with PayBright, taxes, prices and shipping", async () => {
      const first = await run(["rate=1.37", "shipping-price=12.50", "stock=25"])
      expect([first.code, first.output]).toEqual([0, expect.stringContaining("created the region Canada (CAD)")])

      const container = getContainer()
      const [region] = await regionsHolding(container, "ca")
      expect(region).toMatchObject({ currency_code: "cad", automatic_taxes: true })
      expect(region.payment_providers.map((provider: { id: string }) => provider.id)).toEqual([PAYBRIGHT_PROVIDER_ID])

      const taxRegions = (await container
        .resolve(Modules.TAX)
        .listTaxRegions({ country_code: "ca" }, { relations: ["tax_rates"] })) as (TaxRegionDTO & {
        tax_rates: { code: string; rate: number }[]
      })[]
      expect(
        taxRegions
          .map((tax) => [tax.province_code ?? "", tax.tax_rates.map((rate) => [rate.code, Number(rate.rate)])])
          .sort()
      ).toEqual(
        [
          ["", [[CANADIAN_SALES_TAX.country.code, CANADIAN_SALES_TAX.country.rate]]],
          ...CANADIAN_SALES_TAX.provinces.map((province) => [province.province_code, [[province.code, province.rate]]]),
        ].sort()
      )

      // Each variant keeps its EUR and USD prices and gains USD × 1.37 in CAD, to the cent.
      expect(await pricesOf(container)).toEqual({
        [starter.shirt]: { eur: 10, usd: 15, cad: 20.55 },
        [starter.hoodie]: { eur: 40, usd: 44.99, cad: 61.64 },
      })

      // A Canadian shopper's cart: the CAD price, the Canadian shipping option, Ontario's HST.
      const headers = { headers: { "x-publishable-api-key": starter.publishableKey } }
      const {
        data: { cart },
      } = await api
        .post(
          "/store/carts",
          {
            region_id: region.id,
            items: [{ variant_id: starter.shirt, quantity: 1 }],
            shipping_address: { country_code: "ca", province: "ON", postal_code: "M5X 1A9" },
          },
          headers
        )
        .catch((error: { response?: { data: unknown } }) => {
          throw new Error(JSON.stringify(error.response?.data))
        })
      const {
        data: { shipping_options },
      } = await api.get(`/store/shipping-options?cart_id=${cart.id}`, headers)
      expect(shipping_options.map((option: { name: string; amount: number }) => [option.name, option.amount])).toEqual([
        ["Standard Shipping", 12.5],
      ])
      await api.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: shipping_options[0].id }, headers)
      const {
        data: { cart: priced },
      } = await api.get(`/store/carts/${cart.id}`, headers)
      // (20.55 + 12.50) × 1.13, which Medusa's cart keeps unrounded.
      expect(priced.total).toBe(37.3465)
      const {
        data: { payment_providers },
      } = await api.get(`/store/payment-providers?region_id=${region.id}`, headers)
      expect(payment_providers.map((provider: { id: string }) => provider.id)).toEqual([PAYBRIGHT_PROVIDER_ID])

      const query = container.resolve(ContainerRegistrationKeys.QUERY)
      const {
        data: [location],
      } = await query.graph({
        entity: "stock_location",
        fields: ["name", "sales_channels.id", "fulfillment_providers.id"],
        filters: { name: "Canadian Warehouse" },
      })
      expect(location).toEqual({
        id: expect.stringMatching(/^sloc_/),
        name: "Canadian Warehouse",
        sales_channels: [{ id: starter.salesChannelId }],
        fulfillment_providers: [{ id: "manual_manual" }],
      })
      const levels = await container.resolve(Modules.INVENTORY).listInventoryLevels({})
      expect(levels.filter((level) => Number(level.stocked_quantity) === 25)).toHaveLength(2)

      // Run again: nothing left to do, nothing changed.
      const before = await snapshot(container)
      const second = await run(["rate=1.37", "shipping-price=12.50", "stock=25"])
      expect([second.code, second.output]).toEqual([0, expect.stringContaining("nothing to do")])
      expect(await snapshot(container)).toEqual(before)
    })

    it("enables the system provider too when asked, beside PayBright", async () => {
      // Canada already sells with PayBright (made in the admin, or by an earlier run of the script):
      // made here in the test's process, since each `medusa exec` boots the whole store.
      await createRegionsWorkflow(getContainer()).run({
        input: {
          regions: [
            { name: "Canada", currency_code: "cad", countries: ["ca"], payment_providers: [PAYBRIGHT_PROVIDER_ID] },
          ],
        },
      })
      const { code, output } = await run(["system-provider"])
      expect([code, output]).toEqual([0, expect.stringContaining("enabled pp_system_default on the region Canada")])
      const [region] = await regionsHolding(getContainer(), "ca")
      expect(region.payment_providers.map((provider: { id: string }) => provider.id).sort()).toEqual([
        PAYBRIGHT_PROVIDER_ID,
        "pp_system_default",
      ])
    })
  },
}

/** What Medusa's starter seeds, in small: the store, a European region, two products, a Danish warehouse. */
async function seedLikeTheStarter(container: MedusaContainer) {
  const {
    result: [channel],
  } = await createSalesChannelsWorkflow(container).run({ input: { salesChannelsData: [{ name: "Starter channel" }] } })
  const [store] = await container.resolve(Modules.STORE).listStores()
  if (store) {
    await container.resolve(Modules.STORE).updateStores(store.id, {
      default_sales_channel_id: channel.id,
      supported_currencies: [
        { currency_code: "eur", is_default: true },
        { currency_code: "usd", is_default: false },
      ],
    })
  } else {
    await createStoresWorkflow(container).run({
      input: {
        stores: [
          {
            name: "Starter store",
            default_sales_channel_id: channel.id,
            supported_currencies: [
              { currency_code: "eur", is_default: true },
              { currency_code: "usd", is_default: false },
            ],
          },
        ],
      },
    })
  }
  await createRegionsWorkflow(container).run({
    input: {
      regions: [
        { name: "Europe", currency_code: "eur", countries: ["de", "dk"], payment_providers: ["pp_system_default"] },
      ],
    },
  })
  const {
    result: [key],
  } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "Starter key", type: "publishable", created_by: "seed" }] },
  })
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: key.id, add: [channel.id] } })
  const {
    result: [location],
  } = await createStockLocationsWorkflow(container).run({
    input: {
      locations: [{ name: "European Warehouse", address: { address_1: "", city: "Copenhagen", country_code: "DK" } }],
    },
  })
  await linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id: location.id, add: [channel.id] } })
  // Medusa's own migration script makes it in a real store.
  const {
    result: [profile],
  } = await createShippingProfilesWorkflow(container).run({ input: { data: [{ name: "Default", type: "default" }] } })
  const { result: products } = await createProductsWorkflow(container).run({
    input: {
      products: [
        ["Medusa T-Shirt", 10, 15],
        ["Medusa Hoodie", 40, 44.99],
      ].map(([title, eur, usd]) => ({
        title: String(title),
        status: "published" as const,
        shipping_profile_id: profile.id,
        sales_channels: [{ id: channel.id }],
        options: [{ title: "Size", values: ["M"] }],
        variants: [
          {
            title: "M",
            manage_inventory: true,
            options: { Size: "M" },
            prices: [
              { currency_code: "eur", amount: Number(eur) },
              { currency_code: "usd", amount: Number(usd) },
            ],
          },
        ],
      })),
    },
  })
  return {
    shirt: products[0].variants[0].id,
    hoodie: products[1].variants[0].id,
    salesChannelId: channel.id,
    publishableKey: key.token,
  }
}

async function regionsHolding(container: MedusaContainer, country: string) {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "region",
    fields: ["id", "currency_code", "automatic_taxes", "countries.iso_2", "payment_providers.id"],
  })
  return data.filter((region) =>
    region.countries?.some((candidate: { iso_2: string } | null) => candidate?.iso_2 === country)
  )
}

/** Each variant's price per currency. */
async function pricesOf(container: MedusaContainer) {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "product_variant",
    fields: ["id", "prices.amount", "prices.currency_code"],
  })
  return Object.fromEntries(
    data.map((variant) => [
      variant.id,
      Object.fromEntries(
        (variant.prices ?? [])
          .map((price: { currency_code: string; amount: number } | null) => [
            price!.currency_code,
            Number(price!.amount),
          ])
          .sort()
      ),
    ])
  )
}

/** Everything the script may write, to compare one run with the next. */
async function snapshot(container: MedusaContainer) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const graph = async (entity: string, fields: string[]) => JSON.stringify((await query.graph({ entity, fields })).data)
  return {
    store: await graph("store", ["supported_currencies.currency_code"]),
    regions: await graph("region", ["id", "payment_providers.id", "countries.iso_2"]),
    taxRegions: (await container.resolve(Modules.TAX).listTaxRegions({})).map((tax) => tax.id).sort(),
    prices: await graph("product_variant", ["id", "prices.id", "prices.amount", "prices.currency_code"]),
    locations: await graph("stock_location", ["id", "sales_channels.id", "fulfillment_sets.service_zones.id"]),
    shippingOptions: (await container.resolve(Modules.FULFILLMENT).listShippingOptions({}))
      .map((option) => option.id)
      .sort(),
    levels: (await container.resolve(Modules.INVENTORY).listInventoryLevels({})).length,
  }
}
