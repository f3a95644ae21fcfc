import { Button, toast, usePrompt } from "@medusajs/ui"
import type { PayBrightAttentionAction } from "../../types/admin"
import { useRecordActions } from "../hooks/paybright"
import { errorText, money } from "../lib/format"

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
  return async (
    title: string,
    description: string,
    confirmText: string,
    run: () => Promise<ActionOutcome>,
    changed?: () => Promise<string | null>
  ) => {
    const heading = title.replace(/\?$/, "")
    const moved = changed ? await changed().catch(() => null) : null
    if (moved) {
      toast.warning(heading, { description: moved })
      return
    }
    if (!(await prompt({ title, description, confirmText, cancelText: "Cancel" }))) return
    try {
      const outcome = await run()
      if ("unchanged" in outcome) toast.warning(heading, { description: outcome.unchanged })
      else toast.success(heading, { description: outcome.done })
    } catch (error) {
      toast.error(`${heading}: not done`, { description: errorText(error, "The action failed.") })
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
  run: () => Promise<ActionOutcome>
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
    run: async () => {
      await mutations.resolveRecord.mutateAsync({ recordId: recordId!, lenderShows })
      return {
        done:
          lenderShows === "nothing"
            ? `Recorded: nothing happened at PayBright. It may be tried again.`
            : isVoid
              ? `Recorded: contract ${contract} is cancelled, and the shopper's loan released.`
              : `Recorded: the ${what} is done.`,
      }
    },
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
          run: async () => {
            const { capture } = await mutations.retryCapture.mutateAsync(recordId)
            return capture.status === "skipped"
              ? { unchanged: `Nothing was captured: ${capture.reason}` }
              : { done: `PayBright captured ${money(capture.amount, currency)}.` }
          },
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
          run: async () => {
            await mutations.retryRelease.mutateAsync(recordId)
            return { done: `Contract ${contract} is voided: the shopper's loan is released.` }
          },
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
          run: async () => {
            await mutations.markHandled.mutateAsync(approvalId)
            return { done: `Contract ${contract} is marked handled.` }
          },
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
