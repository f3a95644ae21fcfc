import {
  createInventoryLevelsWorkflow,
  createLinksWorkflow,
  createLocationFulfillmentSetWorkflow,
  createRegionsWorkflow,
  createServiceZonesWorkflow,
  createShippingOptionsWorkflow,
  createShippingProfilesWorkflow,
  createStockLocationsWorkflow,
  createTaxRegionsWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
  updateProductVariantsWorkflow,
  updateRegionsWorkflow,
  updateStoresWorkflow,
} from "@medusajs/core-flows"
import path from "node:path"
import type { ExecArgs, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN, Modules } from "@medusajs/framework/utils"
import { PAYBRIGHT_PROVIDER_ID } from "../storefront/provider"

/**
 * Makes a store ready to sell in Canada with PayBright, as far as it is not already: run in the
 * store's backend with
 *
 *   npx medusa exec ./node_modules/medusa-payment-paybright/.medusa/server/src/scripts/setup-canada.js [words]
 *
 * It adds CAD to the store's currencies; a "Canada" region in CAD with PayBright enabled and taxes
 * computed automatically; Canada's sales taxes (CANADIAN_SALES_TAX); CAD prices on every variant
 * that has none; a Canadian stock location linked to the store's default sales channel, with a
 * service zone for Canada and a standard shipping option priced in CAD. What exists already is
 * left as it is (a region holding Canada, a tax region, a CAD price, a service zone for Canada with
 * a shipping option), so running it twice changes nothing.
 *
 * Words (Medusa's `exec` hands on plain words, not `--flags`):
 *   system-provider     also enable Medusa's system provider (pp_system_default) on the region
 *   price-from=usd|eur  the currency a CAD price is derived from (default usd, else eur)
 *   rate=1.37           CAD per unit of that currency (default 1: the same number)
 *   price=129           one CAD price for every variant without one, instead of deriving it
 *   shipping-price=15   the shipping option's CAD price (default 10)
 *   stock=100           units of each inventory item stocked at the Canadian location (default 0)
 */
export default async function setupCanadaScript({ container, args }: ExecArgs) {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const done = await setupCanada(container, parseSetupWords(args ?? []))
  for (const line of done.length ? done : ["nothing to do: the store already sells in Canada with PayBright"]) {
    logger.info(`PayBright Canada setup: ${line}`)
  }
}

/** The words after this script's path on the command line, or undefined when no command names it. */
function wordsAfterThisScript(argv: string[]): string[] | undefined {
  const self = withoutExtension(__filename)
  const at = argv.findIndex((arg, index) => index > 0 && withoutExtension(path.resolve(arg)) === self)
  return at === -1 ? undefined : argv.slice(at + 1)
}

function withoutExtension(file: string) {
  return file.slice(0, file.length - path.extname(file).length)
}

export type SetupCanadaOptions = {
  /** Payment providers to enable on the region, PayBright's first. */
  providerIds: string[]
  priceFrom: "usd" | "eur"
  /** CAD per unit of `priceFrom`, a decimal string. */
  rate: string
  /** One CAD price for every variant without one, instead of deriving it. */
  price?: string
  shippingPrice: string
  stock: number
}

const WORDS = ["system-provider", "price-from", "rate", "price", "shipping-price", "stock"]

/** The words after the script's path (`system-provider`, `rate=1.37`, …), checked. */
export function parseSetupWords(words: string[]): SetupCanadaOptions {
  const given = new Map<string, string>()
  for (const word of words) {
    const [name, ...rest] = word.replace(/^--/, "").split("=")
    if (!WORDS.includes(name)) throw new Error(`unknown word "${word}": the words are ${WORDS.join(", ")}`)
    given.set(name, rest.join("="))
  }
  const decimal = (name: string, fallback?: string) => {
    const value = given.get(name) ?? fallback
    if (value !== undefined && !/^\d+(\.\d+)?$/.test(value)) {
      throw new Error(`${name}=${value}: a positive decimal number is expected, such as ${name}=12.50`)
    }
    return value
  }
  const priceFrom = given.get("price-from") ?? "usd"
  if (priceFrom !== "usd" && priceFrom !== "eur") throw new Error(`price-from=${priceFrom}: usd or eur`)
  const stock = Number(given.get("stock") ?? 0)
  if (!Number.isInteger(stock) || stock < 0) throw new Error(`stock=${given.get("stock")}: a whole number is expected`)
  return {
    providerIds: given.has("system-provider") ? [PAYBRIGHT_PROVIDER_ID, "pp_system_default"] : [PAYBRIGHT_PROVIDER_ID],
    priceFrom,
    rate: decimal("rate", "1")!,
    price: decimal("price"),
    shippingPrice: decimal("shipping-price", "10")!,
    stock,
  }
}

/**
 * Canada's sales taxes, as a Canadian merchant charges them: 5 % GST everywhere; 13 % HST in
 * Ontario, which replaces the GST; 9.975 % QST in Quebec, on top of the GST (14.975 % in all).
 * Shipping is taxed like the goods. Other provinces' rates (HST, PST) are the merchant's to add.
 */
export const CANADIAN_SALES_TAX = {
  country: { code: "gst", name: "GST", rate: 5 },
  provinces: [
    { province_code: "on", code: "hst", name: "HST", rate: 13, is_combinable: false },
    { province_code: "qc", code: "qst", name: "QST", rate: 9.975, is_combinable: true },
  ],
}

const CAD = "cad"
const CANADA = "ca"

/** Does what is missing (see the script's comment); answers one line for each thing it did. */
export async function setupCanada(container: MedusaContainer, options: SetupCanadaOptions): Promise<string[]> {
  const done: string[] = []
  await checkProvidersRegistered(container, options.providerIds)
  const store = await storeToSetUp(container)
  await addCadToStore(container, store, done)
  await ensureRegion(container, options.providerIds, done)
  await ensureCanadianSalesTax(container, done)
  await addCadPrices(container, options, done)
  await ensureShipping(container, store, options, done)
  return done
}

type StoreToSetUp = {
  id: string
  default_sales_channel_id: string | null
  supported_currencies: { currency_code: string; is_default: boolean; is_tax_inclusive?: boolean }[]
}

async function checkProvidersRegistered(container: MedusaContainer, providerIds: string[]) {
  const registered = await container.resolve(Modules.PAYMENT).listPaymentProviders({ id: providerIds })
  const missing = providerIds.filter((id) => !registered.some((provider) => provider.id === id))
  if (missing.length) {
    throw new Error(
      `${missing.join(", ")} is not registered: add PayBright to the payment module's providers in medusa-config.ts ` +
        `(id "paybright"), then run this again`
    )
  }
}

async function storeToSetUp(container: MedusaContainer): Promise<StoreToSetUp> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "store",
    fields: [
      "id",
      "default_sales_channel_id",
      "supported_currencies.currency_code",
      "supported_currencies.is_default",
      "supported_currencies.is_tax_inclusive",
    ],
  })
  if (!data[0]) throw new Error("the store has no store record yet: run `npx medusa db:migrate` first")
  return data[0] as StoreToSetUp
}

async function addCadToStore(container: MedusaContainer, store: StoreToSetUp, done: string[]) {
  if (store.supported_currencies.some((currency) => currency.currency_code === CAD)) return
  await updateStoresWorkflow(container).run({
    input: {
      selector: { id: store.id },
      update: {
        supported_currencies: [
          ...store.supported_currencies.map(({ currency_code, is_default, is_tax_inclusive }) => ({
            currency_code,
            is_default,
            is_tax_inclusive,
          })),
          { currency_code: CAD },
        ],
      },
    },
  })
  done.push("added CAD to the store's currencies")
}

async function ensureRegion(container: MedusaContainer, providerIds: string[], done: string[]) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: regions } = await query.graph({
    entity: "region",
    fields: ["id", "name", "currency_code", "countries.iso_2", "payment_providers.id"],
  })
  const region = regions.find((candidate) =>
    candidate.countries?.some((country: { iso_2: string } | null) => country?.iso_2 === CANADA)
  )
  if (!region) {
    await createRegionsWorkflow(container).run({
      input: {
        regions: [
          {
            name: "Canada",
            currency_code: CAD,
            countries: [CANADA],
            payment_providers: providerIds,
            automatic_taxes: true,
          },
        ],
      },
    })
    done.push(`created the region Canada (CAD) with ${providerIds.join(", ")}`)
    return
  }
  if (region.currency_code !== CAD) {
    throw new Error(
      `Canada belongs to the region "${region.name}" in ${region.currency_code.toUpperCase()}: PayBright finances CAD only. ` +
        "Move Canada to a CAD region (Settings → Regions), then run this again"
    )
  }
  const enabled = (region.payment_providers ?? []).map((provider: { id: string } | null) => provider!.id)
  const missing = providerIds.filter((id) => !enabled.includes(id))
  if (!missing.length) return
  await updateRegionsWorkflow(container).run({
    input: { selector: { id: region.id }, update: { payment_providers: [...enabled, ...missing] } },
  })
  done.push(`enabled ${missing.join(", ")} on the region ${region.name}`)
}

/** Canada's tax region with the GST, and the provinces of CANADIAN_SALES_TAX, where missing. */
export async function ensureCanadianSalesTax(container: MedusaContainer, done: string[] = []) {
  const tax = container.resolve(Modules.TAX)
  const regions = await tax.listTaxRegions({ country_code: CANADA })
  let canada = regions.find((region) => !region.province_code)
  if (!canada) {
    ;[canada] = (
      await createTaxRegionsWorkflow(container).run({
        input: [{ country_code: CANADA, provider_id: "tp_system", default_tax_rate: CANADIAN_SALES_TAX.country }],
      })
    ).result
    done.push(`created Canada's tax region (${CANADIAN_SALES_TAX.country.name} ${CANADIAN_SALES_TAX.country.rate} %)`)
  }
  const missing = CANADIAN_SALES_TAX.provinces.filter(
    (province) => !regions.some((region) => region.province_code?.toLowerCase() === province.province_code)
  )
  if (!missing.length) return
  await createTaxRegionsWorkflow(container).run({
    input: missing.map(({ province_code, ...rate }) => ({
      country_code: CANADA,
      province_code,
      parent_id: canada.id,
      default_tax_rate: rate,
    })),
  })
  done.push(`created the tax regions of ${missing.map((province) => province.province_code.toUpperCase()).join(", ")}`)
}

type VariantPrices = {
  id: string
  title: string
  prices: { id: string; amount: number; currency_code: string; price_rules?: { attribute: string; value: string }[] }[]
}

/** A CAD price for every variant without one: `price`, or its USD/EUR price times `rate`, to the cent. */
async function addCadPrices(container: MedusaContainer, options: SetupCanadaOptions, done: string[]) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "product_variant",
    fields: [
      "id",
      "title",
      "prices.id",
      "prices.amount",
      "prices.currency_code",
      "prices.price_rules.attribute",
      "prices.price_rules.value",
    ],
  })
  const variants = data as VariantPrices[]
  // A price without rules is the variant's price in its currency, whatever the region.
  const plain = (variant: VariantPrices, currency: string) =>
    variant.prices.find((price) => price.currency_code === currency && !price.price_rules?.length)
  const updates = []
  const unpriced: string[] = []
  for (const variant of variants) {
    if (plain(variant, CAD)) continue
    const source = plain(variant, options.priceFrom) ?? plain(variant, options.priceFrom === "usd" ? "eur" : "usd")
    const amount = options.price ?? (source ? MathBN.mult(source.amount, options.rate).toFixed(2) : undefined)
    if (amount === undefined) {
      unpriced.push(variant.title)
      continue
    }
    updates.push({
      id: variant.id,
      // The variant's whole price list: the prices it had, unchanged, and the CAD one.
      prices: [
        ...variant.prices.map((price) => ({
          id: price.id,
          amount: price.amount,
          currency_code: price.currency_code,
          ...(price.price_rules?.length
            ? { rules: Object.fromEntries(price.price_rules.map((rule) => [rule.attribute, rule.value])) }
            : {}),
        })),
        { currency_code: CAD, amount: Number(amount) },
      ],
    })
  }
  if (updates.length) {
    await updateProductVariantsWorkflow(container).run({ input: { product_variants: updates } })
    done.push(
      `added CAD prices to ${updates.length} variants (${options.price ? `CA$${options.price} each` : `${options.priceFrom.toUpperCase()} × ${options.rate}`})`
    )
  }
  if (unpriced.length) {
    done.push(`left ${unpriced.length} variants without a CAD price (no USD or EUR price): ${unpriced.join(", ")}`)
  }
}

/**
 * Somewhere to ship Canadian orders from, where missing: a stock location in Canada (stocked with
 * `stock` units of each item) sold through the default sales channel, a service zone for Canada and
 * a standard shipping option in CAD on the default shipping profile.
 */
async function ensureShipping(
  container: MedusaContainer,
  store: StoreToSetUp,
  options: SetupCanadaOptions,
  done: string[]
) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const fulfillment = container.resolve(Modules.FULFILLMENT)
  let zone = (await fulfillment.listServiceZones({ geo_zones: { country_code: CANADA } }))[0]

  if (!zone) {
    const location = await canadianLocation(container, store, options, done)
    const setName = `${location.name} delivery`
    await createLocationFulfillmentSetWorkflow(container).run({
      input: { location_id: location.id, fulfillment_set_data: { name: setName, type: "shipping" } },
    })
    const {
      data: [withSets],
    } = await query.graph({
      entity: "stock_location",
      fields: ["fulfillment_sets.id", "fulfillment_sets.name"],
      filters: { id: location.id },
    })
    const set = withSets.fulfillment_sets!.find(
      (candidate: { id: string; name: string } | null) => candidate?.name === setName
    )!
    const {
      result: [created],
    } = await createServiceZonesWorkflow(container).run({
      input: {
        data: [{ fulfillment_set_id: set.id, name: "Canada", geo_zones: [{ type: "country", country_code: CANADA }] }],
      },
    })
    zone = created
    done.push(`created the service zone Canada at ${location.name}`)
  }

  const shippingOptions = await fulfillment.listShippingOptions({ service_zone: { id: zone.id } })
  if (shippingOptions.length) return
  const profileId = await defaultShippingProfile(container, done)
  await createShippingOptionsWorkflow(container).run({
    input: [
      {
        name: "Standard Shipping",
        price_type: "flat",
        provider_id: "manual_manual",
        service_zone_id: zone.id,
        shipping_profile_id: profileId,
        type: { label: "Standard", description: "Ships in 2-3 days.", code: "standard" },
        prices: [{ currency_code: CAD, amount: Number(options.shippingPrice) }],
        rules: [
          { attribute: "enabled_in_store", value: "true", operator: "eq" },
          { attribute: "is_return", value: "false", operator: "eq" },
        ],
      },
    ],
  })
  done.push(`created the shipping option Standard Shipping (CA$${options.shippingPrice})`)
}

/** The store's stock location in Canada, made if there is none, with what it needs to ship. */
async function canadianLocation(
  container: MedusaContainer,
  store: StoreToSetUp,
  options: SetupCanadaOptions,
  done: string[]
): Promise<{ id: string; name: string }> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: locations } = await query.graph({
    entity: "stock_location",
    fields: ["id", "name", "address.country_code", "sales_channels.id", "fulfillment_providers.id"],
  })
  let location = locations.find((candidate) => candidate.address?.country_code?.toLowerCase() === CANADA)
  if (!location) {
    const {
      result: [created],
    } = await createStockLocationsWorkflow(container).run({
      input: {
        locations: [{ name: "Canadian Warehouse", address: { address_1: "", city: "Toronto", country_code: "CA" } }],
      },
    })
    location = { ...created, sales_channels: [], fulfillment_providers: [] }
    done.push("created the stock location Canadian Warehouse (Toronto)")
    await stockNewLocation(container, created.id, options.stock, done)
  }
  if (!location.fulfillment_providers?.some((provider: { id: string } | null) => provider?.id === "manual_manual")) {
    await createLinksWorkflow(container).run({
      input: [
        {
          [Modules.STOCK_LOCATION]: { stock_location_id: location.id },
          [Modules.FULFILLMENT]: { fulfillment_provider_id: "manual_manual" },
        },
      ],
    })
  }
  const channel = store.default_sales_channel_id
  if (channel && !location.sales_channels?.some((candidate: { id: string } | null) => candidate?.id === channel)) {
    await linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id: location.id, add: [channel] } })
    done.push(`linked ${location.name} to the default sales channel`)
  }
  return { id: location.id, name: location.name }
}

/** A level at the new location for every inventory item, `stock` units each. */
async function stockNewLocation(container: MedusaContainer, locationId: string, stock: number, done: string[]) {
  const items = await container.resolve(Modules.INVENTORY).listInventoryItems({}, { select: ["id"] })
  if (!items.length) return
  await createInventoryLevelsWorkflow(container).run({
    input: {
      inventory_levels: items.map((item) => ({
        inventory_item_id: item.id,
        location_id: locationId,
        stocked_quantity: stock,
      })),
    },
  })
  done.push(`stocked ${items.length} inventory items at the Canadian location (${stock} each)`)
}

async function defaultShippingProfile(container: MedusaContainer, done: string[]): Promise<string> {
  const [profile] = await container.resolve(Modules.FULFILLMENT).listShippingProfiles({ type: "default" })
  if (profile) return profile.id
  const {
    result: [created],
  } = await createShippingProfilesWorkflow(container).run({ input: { data: [{ name: "Default", type: "default" }] } })
  done.push("created the default shipping profile")
  return created.id
}

// `medusa exec` imports this file before it boots the store, then hands it the same words: a word
// it cannot use is refused now, instead of after the store's whole boot.
const wordsOnCommandLine = wordsAfterThisScript(process.argv)
if (wordsOnCommandLine) parseSetupWords(wordsOnCommandLine)
