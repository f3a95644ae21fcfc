import type { JourneyResult } from "./journey"

/**
 * The lender's books beside Medusa's, and whether they agree to the cent. Every figure comes from
 * the journey's result: the simulator's contract on one side, Medusa's payment on the other.
 * Amounts are two-decimal strings on both sides, so comparing the text compares the cents.
 */
export function ledgerTable(result: JourneyResult): { text: string; agree: boolean } {
  const { lender, medusa } = result
  const rows: { label: string; lender: string; medusa: string; compared: boolean }[] = [
    { label: "authorized", lender: lender.authorized, medusa: medusa.authorized, compared: true },
    { label: "captured", lender: lender.captured, medusa: medusa.captured, compared: true },
    { label: "  captures", lender: list(lender.captures), medusa: list(medusa.captures), compared: true },
    { label: "refunded", lender: lender.refunded, medusa: medusa.refunded, compared: true },
    { label: "  refunds", lender: list(lender.refunds), medusa: list(medusa.refunds), compared: true },
  ]
  const agree = rows.every((row) => !row.compared || row.lender === row.medusa)
  const widths = [
    12,
    Math.max(14, ...rows.map((row) => row.lender.length)),
    Math.max(14, ...rows.map((row) => row.medusa.length)),
  ]
  const line = (cells: string[]) =>
    cells.map((cell, index) => (index === 0 ? cell.padEnd(widths[0]) : cell.padStart(widths[index]))).join("  ")
  const how = [
    result.capturedBy.atShipment.length ? `${list(result.capturedBy.atShipment)} at shipment` : "",
    result.capturedBy.byAdmin ? `${result.capturedBy.byAdmin} by the admin` : "",
  ]
    .filter(Boolean)
    .join(", ")
  const text = [
    "",
    `Order ${result.displayId ? `#${result.displayId} ` : ""}(${result.orderId}), PayBright contract ${result.gatewayReference}, CAD`,
    line(["", "PayBright", "Medusa"]),
    line(["", "-".repeat(widths[1]), "-".repeat(widths[2])]),
    ...rows.map((row) => `${line([row.label, row.lender, row.medusa])}${row.lender === row.medusa ? "" : "   ≠"}`),
    "",
    `Captured ${how || "nothing"}.`,
    agree
      ? "✔ Medusa's totals agree with the lender's to the cent."
      : "✖ Medusa's totals do NOT agree with the lender's (rows marked ≠).",
  ].join("\n")
  return { text, agree }
}

function list(amounts: string[]) {
  return amounts.join(" + ") || "-"
}
