import { PAYBRIGHT_PROVIDER_ID } from "../src/storefront/provider"
import { ensureCanadianSalesTax } from "../src/scripts/setup-canada"
import {
  createApiKeysWorkflow,
  createInventoryLevelsWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  createShippingOptionsWorkflow,
  createShippingProfilesWorkflow,
  createStockLocationsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
} from "@medusajs/core-flows"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"

export type SeededStore = {
  publishableKey: string
  regionId: string
  salesChannelId: string
  shippingOptionId: string
  stockLocationId: string
  /** One per price asked for, in order, then the product whose price includes the tax. */
  variants: { id: string; title: string; price: number; taxInclusive: boolean }[]
}

export type SeedOptions = {
  /** Payment providers enabled in the Canadian region. */
  providerIds?: string[]
  /** CAD prices before tax of the products to create, one product each. */
  prices?: number[]
  /** CAD price, tax included, of one more product (the last variant). */
  taxInclusivePrice?: number
  /** Shipping's price before tax. */
  shippingPrice?: number
  /** Units of each product in stock at the warehouse. Default 100. */
  stockedQuantity?: number
}

/**
 * The demo's and the tests' Canadian store: CAD region with PayBright and Canada's sales taxes (see
 * CANADIAN_SALES_TAX in src/scripts/setup-canada.ts), a warehouse, standard shipping (taxed too), a few products in stock priced
 * before tax, one priced tax included, and a publishable key.
 */
export async function seedStore(container: MedusaContainer, options: SeedOptions = {}): Promise<SeededStore> {
  const providerIds = options.providerIds ?? [PAYBRIGHT_PROVIDER_ID]
  const prices = options.prices ?? [499.99, 1250, 89.95]
  const link = container.resolve(ContainerRegistrationKeys.LINK)
  const fulfillment = container.resolve(Modules.FULFILLMENT)

  const {
    result: [salesChannel],
  } = await createSalesChannelsWorkflow(container).run({ input: { salesChannelsData: [{ name: "Webshop" }] } })

  const {
    result: [region],
  } = await createRegionsWorkflow(container).run({
    input: {
      regions: [
        {
          name: "Canada",
          currency_code: "cad",
          countries: ["ca"],
          payment_providers: providerIds,
          automatic_taxes: true,
          // Only prices set for this region include the tax (the last product's); CAD prices do not.
          is_tax_inclusive: true,
        },
      ],
    },
  })
  await ensureCanadianSalesTax(container)

  const {
    result: [apiKey],
  } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "Webshop", type: "publishable", created_by: "seed" }] },
  })
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: apiKey.id, add: [salesChannel.id] } })
  // Medusa creates a default publishable key with the store: it sees the products too, so no key the
  // admin lists leads a storefront to an empty shop.
  for (const key of await container.resolve(Modules.API_KEY).listApiKeys({ type: "publishable" })) {
    if (key.id !== apiKey.id) {
      await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: key.id, add: [salesChannel.id] } })
    }
  }

  const {
    result: [location],
  } = await createStockLocationsWorkflow(container).run({
    input: {
      locations: [
        { name: "Toronto warehouse", address: { address_1: "1 Front St W", city: "Toronto", country_code: "CA" } },
      ],
    },
  })
  await linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id: location.id, add: [salesChannel.id] } })
  await link.create({
    [Modules.STOCK_LOCATION]: { stock_location_id: location.id },
    [Modules.FULFILLMENT]: { fulfillment_provider_id: "manual_manual" },
  })

  const {
    result: [profile],
  } = await createShippingProfilesWorkflow(container).run({ input: { data: [{ name: "Default", type: "default" }] } })
  const fulfillmentSet = await fulfillment.createFulfillmentSets({
    name: "Toronto delivery",
    type: "shipping",
    service_zones: [{ name: "Canada", geo_zones: [{ country_code: "ca", type: "country" }] }],
  })
  await link.create({
    [Modules.STOCK_LOCATION]: { stock_location_id: location.id },
    [Modules.FULFILLMENT]: { fulfillment_set_id: fulfillmentSet.id },
  })
  const {
    result: [shippingOption],
  } = await createShippingOptionsWorkflow(container).run({
    input: [
      {
        name: "Standard shipping",
        price_type: "flat",
        provider_id: "manual_manual",
        service_zone_id: fulfillmentSet.service_zones[0].id,
        shipping_profile_id: profile.id,
        type: { label: "Standard", description: "Ships in 2-3 days", code: "standard" },
        prices: [{ currency_code: "cad", amount: options.shippingPrice ?? 15 }],
        rules: [
          { attribute: "enabled_in_store", value: "true", operator: "eq" },
          { attribute: "is_return", value: "false", operator: "eq" },
        ],
      },
    ],
  })

  const catalogue = [
    ...prices.map((price, index) => ({
      title: ["Sofa", "Treadmill", "Desk lamp", "Bicycle", "Mattress"][index % 5] + (index >= 5 ? ` ${index}` : ""),
      price,
      taxInclusive: false,
    })),
    { title: "Bookshelf", price: options.taxInclusivePrice ?? 229.99, taxInclusive: true },
  ]
  const { result: products } = await createProductsWorkflow(container).run({
    input: {
      products: catalogue.map((product, index) => ({
        title: product.title,
        status: "published" as const,
        shipping_profile_id: profile.id,
        sales_channels: [{ id: salesChannel.id }],
        options: [{ title: "Default", values: ["Default"] }],
        variants: [
          {
            title: "Default",
            sku: `SKU-${index + 1}`,
            manage_inventory: true,
            options: { Default: "Default" },
            prices: [
              product.taxInclusive
                ? { currency_code: "cad", amount: product.price, rules: { region_id: region.id } }
                : { currency_code: "cad", amount: product.price },
            ],
          },
        ],
      })),
    },
  })
  const variants = products.map((product, index) => ({
    id: product.variants[0].id,
    title: product.title,
    price: catalogue[index].price,
    taxInclusive: catalogue[index].taxInclusive,
  }))
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: inventory } = await query.graph({
    entity: "product_variant",
    fields: ["id", "inventory_items.inventory_item_id"],
    filters: { id: variants.map((variant) => variant.id) },
  })
  await createInventoryLevelsWorkflow(container).run({
    input: {
      inventory_levels: inventory.map((variant: any) => ({
        inventory_item_id: variant.inventory_items[0].inventory_item_id,
        location_id: location.id,
        stocked_quantity: options.stockedQuantity ?? 100,
      })),
    },
  })

  return {
    publishableKey: apiKey.token,
    regionId: region.id,
    salesChannelId: salesChannel.id,
    shippingOptionId: shippingOption.id,
    stockLocationId: location.id,
    variants,
  }
}
