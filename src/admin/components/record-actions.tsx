import { Button, toast, usePrompt } from "@medusajs/ui"
import type { PayBrightAttentionAction } from "../../types/admin"
import { useRecordActions } from "../hooks/paybright"
import { errorText, money } from "../lib/format"

/** Asks first, runs, and says how it went: every action that touches money or the lender does this. */
export function useConfirmedAction() {
  const prompt = usePrompt()
  return async (title: string, description: string, confirmText: string, run: () => Promise<unknown>) => {
    if (!(await prompt({ title, description, confirmText, cancelText: "Cancel" }))) return
    try {
      await run()
      toast.success(title.replace(/\?$/, ""), { description: "Done." })
    } catch (error) {
      toast.error(`${title.replace(/\?$/, "")}: not done`, { description: errorText(error, "The action failed.") })
    }
  }
}

/** A capture, refund or release record, or an orphaned approval, with the actions the server offers for it. */
export type ActionTarget = {
  recordId: string | null
  approvalId: string | null
  movement: "capture" | "refund" | "void" | null
  /** In doubt: a person answers either way; otherwise only "released" resolves a refused release. */
  inDoubt: boolean
  amount: string
  currency: string
  contract: string | null
  actions: PayBrightAttentionAction[]
}

const PAST = { capture: "capture", refund: "refund", void: "release of the loan" } as const

/** One button: a confirmation that says what will happen, then the call. */
type Confirmed = {
  key: string
  label: string
  title: string
  description: string
  confirmText: string
  run: () => Promise<unknown>
  pending?: boolean
}

/** The buttons of one record or approval: retry, resolve either way, or mark handled. */
export function RecordActions({ target }: { target: ActionTarget }) {
  const confirmThen = useConfirmedAction()
  const mutations = useRecordActions()
  const { recordId, approvalId, amount, currency } = target
  const sum = money(amount, currency)
  const what = target.movement ? `${PAST[target.movement]} of ${sum}` : sum
  const contract = target.contract ?? ""
  const isVoid = target.movement === "void"
  const resolve = (lenderShows: "done" | "nothing", label: string): Confirmed => ({
    key: `resolve-${lenderShows}`,
    label,
    title:
      lenderShows === "nothing"
        ? "Record that nothing happened?"
        : isVoid
          ? "Record it as released?"
          : "Record it as done?",
    description:
      lenderShows === "nothing"
        ? `Only if the PayBright portal shows no ${what}: it may then be tried again.`
        : isVoid
          ? `Only if the PayBright portal shows contract ${contract} cancelled: the shopper's loan is then released.`
          : `Only if the PayBright portal shows this ${what}: Medusa records it without asking PayBright again.`,
    confirmText: lenderShows === "nothing" ? "Nothing happened" : isVoid ? "It is released" : `It is done: ${sum}`,
    run: () => mutations.resolveRecord.mutateAsync({ recordId: recordId!, lenderShows }),
  })
  const buttons: Confirmed[] = target.actions.flatMap((action): Confirmed[] => {
    if (action === "retry_capture" && recordId) {
      return [
        {
          key: action,
          label: `Retry capture of ${sum}`,
          title: "Retry the capture?",
          description: `PayBright will be asked again to capture ${sum}.`,
          confirmText: `Capture ${sum}`,
          run: () => mutations.retryCapture.mutateAsync(recordId),
          pending: mutations.retryCapture.isPending,
        },
      ]
    }
    if (action === "retry_release" && recordId) {
      return [
        {
          key: action,
          label: "Retry the release",
          title: "Retry the release?",
          description: `PayBright will be asked again to void contract ${contract} (${sum}), cancelling the shopper's loan.`,
          confirmText: "Void the contract",
          run: () => mutations.retryRelease.mutateAsync(recordId),
          pending: mutations.retryRelease.isPending,
        },
      ]
    }
    if (action === "resolve" && recordId) {
      const done = resolve("done", isVoid ? "PayBright shows it cancelled" : "PayBright shows it")
      const nothing = resolve("nothing", isVoid ? "PayBright shows it live" : "PayBright shows nothing")
      return target.inDoubt ? [done, nothing] : [done]
    }
    if (action === "mark_handled" && approvalId) {
      return [
        {
          key: action,
          label: "Cancelled in the portal",
          title: "Mark it handled?",
          description: `Only once contract ${contract} is cancelled in the PayBright portal.`,
          confirmText: "It is cancelled",
          run: () => mutations.markHandled.mutateAsync(approvalId),
          pending: mutations.markHandled.isPending,
        },
      ]
    }
    return []
  })
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
