import { Button, Skeleton, Text } from "@medusajs/ui"
import { errorText } from "../lib/format"
import { useAdminText } from "../lib/use-admin-text"

/**
 * What a PayBright page or widget shows while its data loads, or when loading failed: skeleton
 * lines, or the error with a way to try again.
 */
export function QueryState(props: {
  isLoading: boolean
  isError: boolean
  error: unknown
  retry: () => unknown
  what: string
  lines?: number
}) {
  const { t } = useAdminText()
  if (props.isLoading) {
    return (
      <div className="flex flex-col gap-y-2 px-6 py-4" aria-busy="true">
        {Array.from({ length: props.lines ?? 3 }, (_, index) => (
          <Skeleton key={index} className={index % 2 ? "h-4 w-1/2" : "h-4 w-3/4"} />
        ))}
      </div>
    )
  }
  if (props.isError) {
    return (
      <div className="flex items-center justify-between gap-x-4 px-6 py-4">
        <Text size="small" className="text-ui-fg-error">
          {errorText(props.error, t("paybright.common.notLoaded", { what: props.what }))}
        </Text>
        <Button size="small" variant="secondary" onClick={() => void props.retry()}>
          {t("paybright.common.tryAgain")}
        </Button>
      </div>
    )
  }
  return null
}
