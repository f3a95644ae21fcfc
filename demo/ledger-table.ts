import type { JourneyResult } from "./journey"

/** The lender's books beside Medusa's, and whether they agree to the cent. */
export function ledgerTable(result: JourneyResult): { text: string; agree: boolean } {
  const rows: [string, string, string][] = [
    ["authorized", result.lender.authorized, result.medusa.authorized],
    ["captured", result.lender.captured, result.medusa.captured],
    ["  captures", result.lender.captures.join(" + ") || "-", result.medusa.captures.join(" + ") || "-"],
    ["refunded", result.lender.refunded, result.medusa.refunded],
  ]
  const agree = rows.every(([, lender, medusa]) => lender === medusa)
  const widths = [12, Math.max(14, ...rows.map((row) => row[1].length)), Math.max(14, ...rows.map((row) => row[2].length))]
  const line = (cells: string[]) => cells.map((cell, index) => (index === 0 ? cell.padEnd(widths[index]) : cell.padStart(widths[index]))).join("  ")
  const text = [
    "",
    `Order ${result.orderId}, PayBright contract ${result.gatewayReference} (CAD)`,
    line(["", "PayBright", "Medusa"]),
    line(["", "-".repeat(widths[1]), "-".repeat(widths[2])]),
    ...rows.map((row) => `${line(row)}${row[1] === row[2] ? "" : "   ≠"}`),
    "",
    agree ? "✔ Medusa's totals agree with the lender's to the cent." : "✖ Medusa's totals do NOT agree with the lender's.",
  ].join("\n")
  return { text, agree }
}
