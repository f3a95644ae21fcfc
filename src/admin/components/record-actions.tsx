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

/** The buttons of one record or approval: retry, resolve either way, or mark handled. */
export function RecordActions({ target }: { target: ActionTarget }) {
  const confirmThen = useConfirmedAction()
  const mutations = useRecordActions()
  const { recordId, approvalId, amount, currency } = target
  const what = target.movement ? `${PAST[target.movement]} of ${money(amount, currency)}` : money(amount, currency)
  const isVoid = target.movement === "void"
  const buttons: JSX.Element[] = []
  for (const action of target.actions) {
    if (action === "retry_capture" && recordId) {
      buttons.push(
        <Button
          key={action}
          size="small"
          variant="secondary"
          isLoading={mutations.retryCapture.isPending}
          onClick={() =>
            confirmThen(
              "Retry the capture?",
              `PayBright will be asked again to capture ${money(amount, currency)}.`,
              `Capture ${money(amount, currency)}`,
              () => mutations.retryCapture.mutateAsync(recordId)
            )
          }
        >
          Retry capture of {money(amount, currency)}
        </Button>
      )
    }
    if (action === "retry_release" && recordId) {
      buttons.push(
        <Button
          key={action}
          size="small"
          variant="secondary"
          isLoading={mutations.retryRelease.isPending}
          onClick={() =>
            confirmThen(
              "Retry the release?",
              `PayBright will be asked again to void contract ${target.contract ?? ""} (${money(amount, currency)}), cancelling the shopper's loan.`,
              "Void the contract",
              () => mutations.retryRelease.mutateAsync(recordId)
            )
          }
        >
          Retry the release
        </Button>
      )
    }
    if (action === "resolve" && recordId) {
      const resolve = (lenderShows: "done" | "nothing") =>
        confirmThen(
          lenderShows === "done"
            ? isVoid
              ? "Record it as released?"
              : "Record it as done?"
            : "Record that nothing happened?",
          lenderShows === "done"
            ? isVoid
              ? `Only if the PayBright portal shows contract ${target.contract ?? ""} cancelled: the shopper's loan is then released.`
              : `Only if the PayBright portal shows this ${what}: Medusa records it without asking PayBright again.`
            : `Only if the PayBright portal shows no ${what}: it may then be tried again.`,
          lenderShows === "done"
            ? isVoid
              ? "It is released"
              : `It is done: ${money(amount, currency)}`
            : "Nothing happened",
          () => mutations.resolveRecord.mutateAsync({ recordId, lenderShows })
        )
      buttons.push(
        <Button key="resolve-done" size="small" variant="secondary" onClick={() => resolve("done")}>
          {isVoid ? "PayBright shows it cancelled" : "PayBright shows it"}
        </Button>
      )
      if (target.inDoubt) {
        buttons.push(
          <Button key="resolve-nothing" size="small" variant="secondary" onClick={() => resolve("nothing")}>
            {isVoid ? "PayBright shows it live" : "PayBright shows nothing"}
          </Button>
        )
      }
    }
    if (action === "mark_handled" && approvalId) {
      buttons.push(
        <Button
          key={action}
          size="small"
          variant="secondary"
          isLoading={mutations.markHandled.isPending}
          onClick={() =>
            confirmThen(
              "Mark it handled?",
              `Only once contract ${target.contract ?? ""} is cancelled in the PayBright portal.`,
              "It is cancelled",
              () => mutations.markHandled.mutateAsync(approvalId)
            )
          }
        >
          Cancelled in the portal
        </Button>
      )
    }
  }
  return buttons.length ? <div className="flex flex-wrap gap-2">{buttons}</div> : null
}
