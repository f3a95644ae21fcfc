import { Button, Text, toast, usePrompt } from "@medusajs/ui"
import type { PayBrightAttentionAction } from "../../lib/admin-types"
import { useRecordActions } from "../hooks/paybright"
import { errorText } from "../lib/format"
import { AdminActionError } from "../lib/sdk"
import { useSaid } from "../lib/use-said"
import { useAdminText } from "../lib/use-admin-text"

/**
 * What an action came to, in one sentence: `done` when it did what it said, `unchanged` when the
 * order had moved on and nothing was done.
 */
export type ActionOutcome = { done: string } | { unchanged: string }

/**
 * Asks first, runs, and says what happened: every action that touches money or the lender does
 * this. `changed`, looked at before asking, says why the action no longer applies (the order moved
 * on since the page was drawn): the merchant is told that instead, and nothing runs.
 */
export function useConfirmedAction() {
  const prompt = usePrompt()
  const { t } = useAdminText()
  const say = useSaid()
  return async (
    title: string,
    description: string,
    confirmText: string,
    run: () => Promise<ActionOutcome>,
    changed?: () => Promise<string | null>
  ) => {
    // French puts a no-break space before its question mark: the heading drops both.
    const heading = title.replace(/[\s\u00a0]*\?$/, "")
    const moved = changed ? await changed().catch(() => null) : null
    if (moved) {
      toast.warning(heading, { description: moved })
      return
    }
    if (!(await prompt({ title, description, confirmText, cancelText: t("paybright.common.cancel") }))) return
    try {
      const outcome = await run()
      if ("unchanged" in outcome) toast.warning(heading, { description: outcome.unchanged })
      else toast.success(heading, { description: outcome.done })
    } catch (error) {
      toast.error(t("paybright.common.notDone", { action: heading }), {
        description:
          error instanceof AdminActionError && error.said
            ? say(error.said)
            : errorText(error, t("paybright.common.actionFailed")),
      })
    }
  }
}

/** A capture, refund or void record, or an orphaned approval, with the actions the server offers for it. */
export type ActionTarget = {
  recordId: string | null
  approvalId: string | null
  movement: "capture" | "refund" | "void" | null
  /** In doubt: a person answers either way; otherwise only "voided" resolves a refused void. */
  inDoubt: boolean
  amount: string
  currency: string
  contract: string | null
  actions: PayBrightAttentionAction[]
}

/** One button: a confirmation that says what will happen, then the call. */
type Confirmed = {
  key: string
  label: string
  title: string
  description: string
  confirmText: string
  run: () => Promise<ActionOutcome>
  pending?: boolean
}

/**
 * The buttons of one record or approval: retry, resolve either way, or mark handled. A refused
 * capture whose money Medusa's own "Capture payment" takes has no button here but a sentence naming
 * Medusa's, in Medusa's words: one way to capture the same money (docs/admin.md).
 */
export function RecordActions({ target, onOrderPage = false }: { target: ActionTarget; onOrderPage?: boolean }) {
  const confirmThen = useConfirmedAction()
  const mutations = useRecordActions()
  const { t, money } = useAdminText()
  const { recordId, approvalId, amount, currency } = target
  const sum = money(amount, currency)
  const what = target.movement ? t(`paybright.actions.what.${target.movement}`, { amount: sum }) : sum
  const contract = target.contract ?? ""
  const isVoid = target.movement === "void"
  const resolve = (lenderShows: "done" | "nothing", label: string): Confirmed => {
    const answer = lenderShows === "nothing" ? "nothing" : isVoid ? "voided" : "done"
    return {
      key: `resolve-${lenderShows}`,
      label,
      title: t(`paybright.actions.${answer}Title`),
      description: t(`paybright.actions.${answer}Description`, { what, contract }),
      confirmText: t(`paybright.actions.${answer}Confirm`, { amount: sum }),
      run: async () => {
        await mutations.resolveRecord.mutateAsync({ recordId: recordId!, lenderShows })
        return { done: t(`paybright.actions.${answer}Done`, { what, contract }) }
      },
    }
  }
  const buttons: Confirmed[] = target.actions.flatMap((action): Confirmed[] => {
    if (action === "retry_capture" && recordId) {
      return [
        {
          key: action,
          label: t("paybright.actions.retryCapture", { amount: sum }),
          title: t("paybright.actions.retryCaptureTitle"),
          description: t("paybright.actions.retryCaptureDescription", { amount: sum }),
          confirmText: t("paybright.actions.retryCaptureConfirm", { amount: sum }),
          run: async () => {
            const { capture } = await mutations.retryCapture.mutateAsync(recordId)
            return capture.status === "skipped"
              ? { unchanged: t("paybright.actions.nothingCaptured", { reason: capture.reason }) }
              : { done: t("paybright.panel.captureDone", { amount: money(capture.amount, currency) }) }
          },
          pending: mutations.retryCapture.isPending,
        },
      ]
    }
    if (action === "retry_void" && recordId) {
      return [
        {
          key: action,
          label: t("paybright.actions.retryVoid"),
          title: t("paybright.actions.retryVoidTitle"),
          description: t("paybright.actions.retryVoidDescription", { contract, amount: sum }),
          confirmText: t("paybright.actions.retryVoidConfirm"),
          run: async () => {
            await mutations.retryVoid.mutateAsync(recordId)
            return { done: t("paybright.actions.retryVoidDone", { contract }) }
          },
          pending: mutations.retryVoid.isPending,
        },
      ]
    }
    if (action === "resolve" && recordId) {
      const done = resolve("done", t(isVoid ? "paybright.actions.showsCanceled" : "paybright.actions.showsIt"))
      const nothing = resolve("nothing", t(isVoid ? "paybright.actions.showsLive" : "paybright.actions.showsNothing"))
      return target.inDoubt ? [done, nothing] : [done]
    }
    if (action === "mark_handled" && approvalId) {
      return [
        {
          key: action,
          label: t("paybright.actions.markHandled"),
          title: t("paybright.actions.markHandledTitle"),
          description: t("paybright.actions.markHandledDescription", { contract }),
          confirmText: t("paybright.actions.markHandledConfirm"),
          run: async () => {
            await mutations.markHandled.mutateAsync(approvalId)
            return { done: t("paybright.actions.markHandledDone", { contract }) }
          },
          pending: mutations.markHandled.isPending,
        },
      ]
    }
    return []
  })
  // A refusal offers Medusa's button or a retry, never both.
  if (target.actions.includes("capture_in_medusa")) {
    return (
      <Text size="xsmall" className="text-ui-fg-subtle" data-paybright-hint="capture_in_medusa">
        {t(onOrderPage ? "paybright.actions.captureInMedusa" : "paybright.actions.captureInMedusaOnOrder", {
          amount: sum,
          capture: t("orders.payment.capture"),
          payments: t("orders.payment.title"),
        })}
      </Text>
    )
  }
  if (buttons.length === 0) return null
  return (
    <div className="flex flex-wrap gap-2">
      {buttons.map((button) => (
        <Button
          key={button.key}
          size="small"
          variant="secondary"
          isLoading={button.pending}
          onClick={() => confirmThen(button.title, button.description, button.confirmText, button.run)}
        >
          {button.label}
        </Button>
      ))}
    </div>
  )
}
