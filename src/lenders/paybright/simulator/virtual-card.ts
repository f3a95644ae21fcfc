import { randomInt, randomUUID } from "node:crypto"
import { luhnCheckDigit } from "./luhn"

/** A card as the simulated issuer creates it; its PAN and CVV leave only through /api/vcn/pan. */
export type IssuedCard = {
  cardToken: string
  created: string
  pan: string
  cvv: string
  /** MMYY with the leading zero. */
  expiration: string
}

export const CARDHOLDER = {
  name: "PAYBRIGHT",
  billing_address: {
    address1: "60 Adelaide St E",
    city: "Toronto",
    state: "ON",
    postal_code: "M5C 3E4",
    country: "CAN",
  },
}

/** A single-use Visa-like card: 16 digits with a valid Luhn check digit, a few years ahead. */
export function issueCard(now = new Date()): IssuedCard {
  const body = "4" + Array.from({ length: 14 }, () => randomInt(10)).join("")
  const month = String(randomInt(1, 13)).padStart(2, "0")
  const year = String((now.getUTCFullYear() + 3) % 100).padStart(2, "0")
  return {
    cardToken: randomUUID(),
    created: now.toISOString().replace(/\.\d{3}Z$/, "Z"),
    pan: body + luhnCheckDigit(body),
    cvv: String(randomInt(1000)).padStart(3, "0"),
    expiration: month + year,
  }
}

/**
 * The response of spec §2.1 as JSON text. pan, cvv and expiration are written as integers, as the
 * spec documents, so clients must cope with lost leading zeros and numbers above 2^53.
 */
export function cardResponseJson(card: IssuedCard): string {
  const integer = (digits: string) => digits.replace(/^0+(?=\d)/, "")
  return (
    "{" +
    `"card_token":${JSON.stringify(card.cardToken)},` +
    `"created":${JSON.stringify(card.created)},` +
    `"expiration":${integer(card.expiration)},` +
    `"cvv":${integer(card.cvv)},` +
    `"pan":${card.pan},` +
    `"cardholder_name":${JSON.stringify(CARDHOLDER.name)},` +
    `"billing_address":${JSON.stringify(CARDHOLDER.billing_address)}` +
    "}"
  )
}
