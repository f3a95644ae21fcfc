import { defineRouteConfig } from "@medusajs/admin-sdk"
import { Alert, Button, Container, Heading, Input, Label, Select, Text, toast } from "@medusajs/ui"
import { useState, type ReactNode } from "react"
import type {
  PayBrightSettingsFacts,
  PayBrightSettingsFields,
  PayBrightSettingsUpdate,
  PayBrightSettingsView,
  PayBrightSecretState,
} from "../../../../lib/admin-types"
import { QueryState } from "../../../components/query-state"
import { useSaveSettings, useSettings } from "../../../hooks/paybright"
import { shownAmount, typedAmount } from "../../../lib/format"
import { refusalText, settingsSentence } from "../../../lib/settings-text"
import { useAdminText } from "../../../lib/use-admin-text"

type FieldErrors = Partial<Record<keyof PayBrightSettingsUpdate, string>>

/** Settings → PayBright: what medusa-config.ts configures, editable here; saved values override it. */
const PayBrightSettingsPage = () => {
  const { t } = useAdminText()
  const { data, isLoading, isError, error, refetch } = useSettings()
  const [selected, setSelected] = useState<string>()
  const views = data?.settings ?? []
  const view = views.find((candidate) => candidate.provider_id === selected) ?? views[0]

  return (
    <Container id="paybright-settings" className="divide-y p-0">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h1">PayBright</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            {t("paybright.settings.intro")}
          </Text>
          <Text size="small" className="text-ui-fg-subtle" id="paybright-settings-new-payments">
            {t("paybright.settings.newPayments")}
          </Text>
        </div>
        {views.length > 1 && view && (
          <Select value={view.provider_id} onValueChange={setSelected}>
            <Select.Trigger className="w-64">
              <Select.Value />
            </Select.Trigger>
            <Select.Content>
              {views.map((candidate) => (
                <Select.Item key={candidate.provider_id} value={candidate.provider_id}>
                  {candidate.provider_id}
                </Select.Item>
              ))}
            </Select.Content>
          </Select>
        )}
      </div>
      <QueryState
        isLoading={isLoading}
        isError={isError}
        error={error}
        retry={refetch}
        what={t("paybright.settings.what")}
        lines={4}
      />
      {/* Keyed by version: a save or another admin's change loads the form afresh. */}
      {view && (
        <SettingsForm
          key={`${view.provider_id}:${view.version}`}
          view={view}
          mayChangeProtected={data?.rights.protected_settings ?? false}
        />
      )}
    </Container>
  )
}

function SettingsForm({ view, mayChangeProtected }: { view: PayBrightSettingsView; mayChangeProtected: boolean }) {
  const locked = !mayChangeProtected
  const { t, tag, dateTime } = useAdminText()
  /** An amount as the settings take it, typed as the admin's language writes it ("5 000,00") or plain. */
  const amount = (typed: string | null) => (typed?.trim() ? typedAmount(typed, tag) : null)
  /** What the server said, in the merchant's language: written here from its facts. */
  const said = (facts: PayBrightSettingsFacts | null, english: string | null) =>
    facts ? settingsSentence(t, tag, facts) : english
  // Amounts are shown as the admin's language writes them, and read back from it on save.
  const [values, setValues] = useState<PayBrightSettingsFields>(() => ({
    ...view.values,
    ...Object.fromEntries(
      AMOUNT_FIELDS.map((name) => [name, view.values[name] === null ? null : shownAmount(view.values[name], tag)])
    ),
  }))
  const [currencies, setCurrencies] = useState(view.values.currencies.join(", "))
  const [months, setMonths] = useState(view.values.financingMonths?.toString() ?? "")
  const [apiToken, setApiToken] = useState("")
  const [cardProcessorSecretKey, setCardProcessorSecretKey] = useState("")
  const [errors, setErrors] = useState<FieldErrors>({})
  const [problem, setProblem] = useState<string>()
  const save = useSaveSettings(view.provider_id)
  const set = <K extends keyof PayBrightSettingsFields>(key: K, value: PayBrightSettingsFields[K]) =>
    setValues((current) => ({ ...current, [key]: value }))

  const submit = async () => {
    setErrors({})
    setProblem(undefined)
    const update: PayBrightSettingsUpdate = {
      environment: values.environment,
      apiKey: values.apiKey,
      captureMode: values.captureMode,
      captureOn: values.captureOn,
      shopName: values.shopName,
      currencies: currencies
        .split(",")
        .map((code) => code.trim())
        .filter(Boolean),
      minOrderAmount: amount(values.minOrderAmount),
      maxOrderAmount: amount(values.maxOrderAmount),
      // Not a whole number: sent as is, so the options schema names the problem beside the field.
      financingMonths:
        months.trim() === "" ? null : /^\d+$/.test(months.trim()) ? Number(months.trim()) : months.trim(),
      ...Object.fromEntries(
        STOREFRONT_TEXT_FIELDS.map((name) => [
          name,
          name === "promotionalWidgetKey" ? values[name]?.trim() || null : amount(values[name]),
        ])
      ),
      ...(values.cardProcessorType !== "custom" ? { cardProcessorType: values.cardProcessorType } : {}),
      ...(apiToken.trim() ? { apiToken } : {}),
      ...(cardProcessorSecretKey.trim() ? { cardProcessorSecretKey } : {}),
    }
    try {
      const { check, saved } = await save.mutateAsync(update)
      if (!saved) {
        const refused = refusalText(t, tag, check.issues, FORM_FIELDS)
        setErrors(refused.fields)
        setProblem(refused.problem)
        // The problem above the form and a field's beside it may both be out of sight.
        toast.error(t("paybright.settings.notSaved"), { description: refused.told })
        return
      }
      toast.success(t("paybright.settings.saved"), { description: settingsSentence(t, tag, saved.credentials) })
    } catch (error) {
      // No facts to write from: the protected settings' permission refused (403), or the server or network failed.
      const forbidden = (error as { status?: number }).status === 403
      const problem = t(forbidden ? "paybright.settings.protectedRefused" : "paybright.settings.notSaved")
      setProblem(problem)
      toast.error(t("paybright.settings.notSaved"), forbidden ? { description: problem } : undefined)
    }
  }

  return (
    <form
      id="paybright-settings-form"
      className="flex flex-col gap-y-6 px-6 py-4"
      onSubmit={(event) => {
        event.preventDefault()
        void submit()
      }}
    >
      {view.unreadable && (
        <Alert variant="error" id="paybright-settings-unreadable">
          {said(view.unreadable_facts, view.unreadable)}
        </Alert>
      )}
      {view.secrets_unavailable && (
        <Alert variant="warning" id="paybright-secrets-unavailable">
          {said(view.secrets_unavailable_facts, view.secrets_unavailable)}
        </Alert>
      )}
      {problem && (
        <Alert variant="error" id="paybright-settings-problem">
          {problem}
        </Alert>
      )}
      <Section title={t("paybright.settings.account")}>
        <Choice
          name="environment"
          label={t("paybright.settings.environment")}
          value={values.environment}
          onChange={(value) => set("environment", value as PayBrightSettingsFields["environment"])}
          options={{ sandbox: t("paybright.settings.sandbox"), production: t("paybright.settings.production") }}
          help={t("paybright.settings.environmentHelp")}
          error={errors.environment}
          locked={locked}
        />
        <TextField
          name="apiKey"
          label={t("paybright.settings.apiKey")}
          value={values.apiKey}
          onChange={(value) => set("apiKey", value)}
          help={t("paybright.settings.apiKeyHelp")}
          error={errors.apiKey}
          locked={locked}
        />
        <SecretField
          name="apiToken"
          label={t("paybright.settings.apiToken")}
          state={view.secrets.apiToken}
          value={apiToken}
          onChange={setApiToken}
          disabled={!!view.secrets_unavailable}
          locked={locked}
          error={errors.apiToken}
        />
      </Section>
      <Section title={t("paybright.settings.capture")}>
        <Choice
          name="captureMode"
          label={t("paybright.settings.captureMode")}
          value={values.captureMode}
          onChange={(value) => set("captureMode", value as PayBrightSettingsFields["captureMode"])}
          options={{ in_store: t("paybright.settings.inStore"), virtual_card: t("paybright.settings.virtualCard") }}
          help={t("paybright.settings.captureModeHelp")}
          error={errors.captureMode}
        />
        <Choice
          name="captureOn"
          label={t("paybright.settings.captureOn")}
          value={values.captureOn}
          onChange={(value) => set("captureOn", value as PayBrightSettingsFields["captureOn"])}
          options={{
            shipment: t("paybright.settings.onShipment"),
            fulfillment: t("paybright.settings.onFulfillment"),
            manual: t("paybright.settings.manually"),
          }}
          help={t("paybright.settings.captureOnHelp")}
          error={errors.captureOn}
        />
        <Choice
          name="cardProcessorType"
          label={t("paybright.settings.cardProcessor")}
          value={values.cardProcessorType}
          onChange={(value) => set("cardProcessorType", value as PayBrightSettingsFields["cardProcessorType"])}
          options={
            values.cardProcessorType === "custom"
              ? { custom: t("paybright.settings.processorCustom") }
              : {
                  none: t("paybright.settings.processorNone"),
                  stripe: t("paybright.settings.processorStripe"),
                  manual: t("paybright.settings.processorManual"),
                }
          }
          help={t("paybright.settings.cardProcessorHelp")}
          error={errors.cardProcessorType}
          locked={locked}
        />
        {values.cardProcessorType === "stripe" && (
          <SecretField
            name="cardProcessorSecretKey"
            label={t("paybright.settings.stripeKey")}
            state={view.secrets.cardProcessorSecretKey}
            value={cardProcessorSecretKey}
            onChange={setCardProcessorSecretKey}
            disabled={!!view.secrets_unavailable}
            locked={locked}
            error={errors.cardProcessorSecretKey}
          />
        )}
      </Section>
      <Section title={t("paybright.settings.checkout")}>
        <TextField
          name="shopName"
          label={t("paybright.settings.shopName")}
          value={values.shopName}
          onChange={(value) => set("shopName", value)}
          help={t("paybright.settings.shopNameHelp")}
          error={errors.shopName}
        />
        <TextField
          name="currencies"
          label={t("paybright.settings.currencies")}
          value={currencies}
          onChange={setCurrencies}
          help={t("paybright.settings.currenciesHelp")}
          error={errors.currencies}
        />
        {(["minOrderAmount", "maxOrderAmount"] as const).map((name) => (
          <TextField
            key={name}
            name={name}
            label={t(`paybright.settings.${name}`)}
            inputMode="decimal"
            value={values[name] ?? ""}
            onChange={(value) => set(name, value)}
            help={t("paybright.settings.amountHelp", { example: shownAmount("5000.00", tag) })}
            error={errors[name]}
          />
        ))}
      </Section>
      <Section title={t("paybright.settings.storefront")}>
        <TextField
          name="financingMonths"
          label={t("paybright.settings.financingMonths")}
          inputMode="decimal"
          value={months}
          onChange={setMonths}
          help={t("paybright.settings.financingMonthsHelp")}
          error={errors.financingMonths}
        />
        {STOREFRONT_TEXT_FIELDS.map((name) => (
          <TextField
            key={name}
            name={name}
            label={t(`paybright.settings.${name}`)}
            inputMode={name === "promotionalWidgetKey" ? undefined : "decimal"}
            value={values[name] ?? ""}
            onChange={(value) => set(name, value)}
            error={errors[name]}
          />
        ))}
      </Section>
      <div className="flex items-center justify-between">
        <Text size="xsmall" className="text-ui-fg-subtle" id="paybright-settings-version">
          {view.version > 0 && view.updated_at
            ? t(view.updated_by ? "paybright.settings.savedBy" : "paybright.settings.savedAt", {
                date: dateTime(view.updated_at),
                user: view.updated_by,
                version: view.version,
              })
            : t("paybright.settings.nothingSaved")}
        </Text>
        <Button type="submit" size="small" isLoading={save.isPending} id="paybright-settings-save">
          {t("paybright.settings.save")}
        </Button>
      </div>
    </form>
  )
}

/** The settings entered as amounts (the APR too): shown and typed as the admin's language writes numbers. */
const AMOUNT_FIELDS = [
  "minOrderAmount",
  "maxOrderAmount",
  "financingApr",
  "financingSetupFee",
  "financingMonthlyFee",
  "financingMinAmount",
] as const

/** The fields of this form: a problem with any other setting is shown above it. */
const FORM_FIELDS = [
  "environment",
  "apiKey",
  "apiToken",
  "captureMode",
  "captureOn",
  "cardProcessorType",
  "cardProcessorSecretKey",
  "shopName",
  "currencies",
  "minOrderAmount",
  "maxOrderAmount",
  "financingMonths",
  "financingApr",
  "financingSetupFee",
  "financingMonthlyFee",
  "financingMinAmount",
  "promotionalWidgetKey",
] as const satisfies readonly (keyof PayBrightSettingsUpdate)[]

/** The storefront's settings entered as text; blank means none. */
const STOREFRONT_TEXT_FIELDS = [
  "financingApr",
  "financingSetupFee",
  "financingMonthlyFee",
  "financingMinAmount",
  "promotionalWidgetKey",
] as const

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-y-4">
      <Heading level="h2">{title}</Heading>
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">{children}</div>
    </div>
  )
}

function Field({
  name,
  label,
  error,
  hint,
  children,
}: {
  name: string
  label: string
  error?: string
  hint?: string
  children: ReactNode
}) {
  return (
    <div className="flex flex-col gap-y-2">
      <Label htmlFor={name} size="small" weight="plus">
        {label}
      </Label>
      {children}
      {hint && !error && (
        <Text size="xsmall" className="text-ui-fg-subtle">
          {hint}
        </Text>
      )}
      {error && (
        <Text size="xsmall" className="text-ui-fg-error" id={`${name}-error`}>
          {error}
        </Text>
      )}
    </div>
  )
}

function TextField(props: {
  name: string
  label: string
  value: string
  onChange: (value: string) => void
  error?: string
  inputMode?: "decimal"
  locked?: boolean
  /** One sentence on what the setting does, in the merchant's words. */
  help?: string
}) {
  const { t } = useAdminText()
  return (
    <Field
      name={props.name}
      label={props.label}
      error={props.error}
      hint={props.locked ? t("paybright.settings.protectedHint") : props.help}
    >
      <Input
        id={props.name}
        disabled={props.locked}
        inputMode={props.inputMode}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </Field>
  )
}

function Choice(props: {
  name: string
  label: string
  value: string
  options: Record<string, string>
  onChange: (value: string) => void
  error?: string
  locked?: boolean
  /** One sentence on what each choice means, in the merchant's words. */
  help?: string
}) {
  const { t } = useAdminText()
  return (
    <Field
      name={props.name}
      label={props.label}
      error={props.error}
      hint={props.locked ? t("paybright.settings.protectedHint") : props.help}
    >
      <Select value={props.value} onValueChange={props.onChange} disabled={props.locked}>
        <Select.Trigger id={props.name}>
          <Select.Value />
        </Select.Trigger>
        <Select.Content>
          {Object.entries(props.options).map(([value, text]) => (
            <Select.Item key={value} value={value}>
              {text}
            </Select.Item>
          ))}
        </Select.Content>
      </Select>
    </Field>
  )
}

/** A secret: never shown, only whether one is set; typing replaces it, blank keeps it. */
function SecretField(props: {
  name: string
  label: string
  state: PayBrightSecretState
  value: string
  onChange: (value: string) => void
  disabled: boolean
  locked: boolean
  error?: string
}) {
  const { t } = useAdminText()
  const masked =
    props.state.source === "admin"
      ? t("paybright.settings.secretAdmin")
      : props.state.source === "config"
        ? t("paybright.settings.secretConfig")
        : t("paybright.settings.secretNone")
  return (
    <Field
      name={props.name}
      label={props.label}
      error={props.error}
      hint={
        props.locked
          ? t("paybright.settings.protectedHint")
          : props.disabled
            ? t("paybright.settings.secretUnavailable")
            : t("paybright.settings.secretKeep")
      }
    >
      <Input
        id={props.name}
        type="password"
        autoComplete="off"
        placeholder={masked}
        value={props.value}
        disabled={props.disabled || props.locked}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </Field>
  )
}

export const config = defineRouteConfig({ label: "PayBright" })

export default PayBrightSettingsPage
