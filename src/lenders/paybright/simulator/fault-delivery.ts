import type { IncomingMessage, ServerResponse } from "node:http"
import { faultAnswer, type Fault, type VoidFaultKind } from "./faults"
import { sendText } from "./http"
import type { SimulatorLogger } from "./logger"

/**
 * What a fault that comes after the lender acted shows in place of the real answer: the real
 * answer itself (held back, for `slow`), one with a field missing, one with a mismatched echo,
 * and, where the operation has them, a body cut short and one whose signature does not verify.
 */
export type FaultAnswers = {
  ok: string
  missing: string
  mismatched: string
  malformed?: string
  badSignature?: string
  /** Content type of these answers; default application/json. */
  type?: string
}

/**
 * Answers with an injected fault: a reset, a held answer, an altered answer from `answers`, or
 * the kind's own status and body (faultAnswer) for faults that come before the lender acted.
 */
export async function deliverFault(
  req: IncomingMessage,
  res: ServerResponse,
  fault: Fault,
  logger: SimulatorLogger,
  answers?: FaultAnswers
) {
  logger.info(`${fault.operation}: injected ${fault.kind}`)
  if (fault.kind === "reset_after_read" || fault.kind === "reset_before_read") {
    req.socket.destroy()
    return
  }
  const type = answers?.type ?? "application/json"
  if (fault.kind === "slow") {
    await new Promise((resolve) => setTimeout(resolve, fault.delayMs ?? 20_000))
    if (!res.destroyed && answers) sendText(res, 200, answers.ok, type)
    return
  }
  const altered: Partial<Record<VoidFaultKind, string>> = {
    missing_field: answers?.missing,
    echo_mismatch: answers?.mismatched,
    malformed_json: answers?.malformed,
    bad_signature: answers?.badSignature,
  }
  const body = altered[fault.kind]
  if (body !== undefined) return sendText(res, 200, body, type)
  const answer = faultAnswer(fault.kind, fault.message)!
  sendText(res, answer.status, answer.body, answer.type, answer.headers)
}
