import { defineRouteConfig } from "@medusajs/admin-sdk"
import { Alert, Button, Container, Heading, Input, Label, Select, Text, toast } from "@medusajs/ui"
import { useState, type ReactNode } from "react"
import type {
  PayBrightSettingsFields,
  PayBrightSettingsUpdate,
  PayBrightSettingsView,
  PayBrightSecretState,
} from "../../../../types/admin"
import { QueryState } from "../../../components/query-state"
import { useSaveSettings, useSettings } from "../../../hooks/paybright"
import { dateTime, errorText } from "../../../lib/format"

type FieldErrors = Partial<Record<keyof PayBrightSettingsUpdate, string>>

/** Settings → PayBright: what medusa-config.ts configures, editable here; saved values override it. */
const PayBrightSettingsPage = () => {
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
            Settings saved here replace those of your store's configuration and reach every server and worker within
            seconds.
          </Text>
          <Text size="small" className="text-ui-fg-subtle" id="paybright-settings-new-payments">
            They apply to new payments: an order already paid keeps the capture mode, card processor, environment and
            account it was authorized under until its money has moved.
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
        what="The PayBright settings"
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

/** Shown under a protected setting to a user who may not change it. */
const PROTECTED_HINT = "Changing this needs the paybright_settings:update permission."

function SettingsForm({ view, mayChangeProtected }: { view: PayBrightSettingsView; mayChangeProtected: boolean }) {
  const locked = !mayChangeProtected
  const [values, setValues] = useState<PayBrightSettingsFields>(view.values)
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
      minOrderAmount: values.minOrderAmount?.trim() || null,
      maxOrderAmount: values.maxOrderAmount?.trim() || null,
      // Not a whole number: sent as is, so the options schema names the problem beside the field.
      financingMonths:
        months.trim() === "" ? null : /^\d+$/.test(months.trim()) ? Number(months.trim()) : months.trim(),
      ...Object.fromEntries(STOREFRONT_TEXT_FIELDS.map(({ name }) => [name, values[name]?.trim() || null])),
      ...(values.cardProcessorType !== "custom" ? { cardProcessorType: values.cardProcessorType } : {}),
      ...(apiToken.trim() ? { apiToken } : {}),
      ...(cardProcessorSecretKey.trim() ? { cardProcessorSecretKey } : {}),
    }
    try {
      const { check, saved } = await save.mutateAsync(update)
      if (!saved) {
        setErrors(check.fields)
        setProblem(check.message)
        return
      }
      toast.success("PayBright settings saved", { description: saved.credentials.message })
    } catch (error) {
      setProblem(errorText(error, "The settings could not be saved."))
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
          {view.unreadable}
        </Alert>
      )}
      {view.secrets_unavailable && (
        <Alert variant="warning" id="paybright-secrets-unavailable">
          {view.secrets_unavailable}
        </Alert>
      )}
      {problem && (
        <Alert variant="error" id="paybright-settings-problem">
          {problem}
        </Alert>
      )}
      <Section title="PayBright account">
        <Choice
          name="environment"
          label="Environment"
          value={values.environment}
          onChange={(value) => set("environment", value as PayBrightSettingsFields["environment"])}
          options={{ sandbox: "Sandbox", production: "Production" }}
          help="Sandbox while you try PayBright with its test accounts; Production once PayBright has given you live credentials."
          error={errors.environment}
          locked={locked}
        />
        <TextField
          name="apiKey"
          label="API key"
          value={values.apiKey}
          onChange={(value) => set("apiKey", value)}
          help="Your PayBright account's API key, as PayBright gave it to you."
          error={errors.apiKey}
          locked={locked}
        />
        <SecretField
          name="apiToken"
          label="API token"
          state={view.secrets.apiToken}
          value={apiToken}
          onChange={setApiToken}
          disabled={!!view.secrets_unavailable}
          locked={locked}
          error={errors.apiToken}
        />
      </Section>
      <Section title="Capture">
        <Choice
          name="captureMode"
          label="Capture mode"
          value={values.captureMode}
          onChange={(value) => set("captureMode", value as PayBrightSettingsFields["captureMode"])}
          options={{ in_store: "In-store capture", virtual_card: "Virtual card" }}
          help="How PayBright pays you: in-store capture asks PayBright for the money of each order; virtual card gives each order a single-use card that your card processor charges."
          error={errors.captureMode}
        />
        <Choice
          name="captureOn"
          label="Capture automatically"
          value={values.captureOn}
          onChange={(value) => set("captureOn", value as PayBrightSettingsFields["captureOn"])}
          options={{
            shipment: "When a parcel ships",
            fulfillment: "When a parcel is fulfilled",
            manual: "Never (capture by hand)",
          }}
          help="When the money is taken: as each parcel ships is what PayBright expects, so you are paid for what you send."
          error={errors.captureOn}
        />
        <Choice
          name="cardProcessorType"
          label="Card processor (virtual card)"
          value={values.cardProcessorType}
          onChange={(value) => set("cardProcessorType", value as PayBrightSettingsFields["cardProcessorType"])}
          options={
            values.cardProcessorType === "custom"
              ? { custom: "Your own (set in medusa-config.ts)" }
              : { none: "None", stripe: "Stripe", manual: "Manual (a person charges the card)" }
          }
          help="With a virtual card only: who charges it, Stripe with your secret key, or a person at your card terminal."
          error={errors.cardProcessorType}
          locked={locked}
        />
        {values.cardProcessorType === "stripe" && (
          <SecretField
            name="cardProcessorSecretKey"
            label="Stripe secret key"
            state={view.secrets.cardProcessorSecretKey}
            value={cardProcessorSecretKey}
            onChange={setCardProcessorSecretKey}
            disabled={!!view.secrets_unavailable}
            locked={locked}
            error={errors.cardProcessorSecretKey}
          />
        )}
      </Section>
      <Section title="Checkout">
        <TextField
          name="shopName"
          label="Shop name (shown on PayBright's application)"
          value={values.shopName}
          onChange={(value) => set("shopName", value)}
          help="The name shoppers read on PayBright's application."
          error={errors.shopName}
        />
        <TextField
          name="currencies"
          label="Currencies offered (comma-separated)"
          value={currencies}
          onChange={setCurrencies}
          help="PayBright is offered only for carts in these currencies, such as CAD."
          error={errors.currencies}
        />
        {(["minOrderAmount", "maxOrderAmount"] as const).map((name) => (
          <TextField
            key={name}
            name={name}
            label={`${name === "minOrderAmount" ? "Minimum" : "Maximum"} order total (blank: none)`}
            inputMode="decimal"
            value={values[name] ?? ""}
            onChange={(value) => set(name, value)}
            help="Amounts such as 5000.00. Outside them PayBright is not offered, and the storefront tells the shopper why."
            error={errors[name]}
          />
        ))}
      </Section>
      <Section title="Storefront (financing estimate and promotional widget)">
        <TextField
          name="financingMonths"
          label="Monthly payments in the estimate (blank: no estimate)"
          inputMode="decimal"
          value={months}
          onChange={setMonths}
          help="With the months and the APR below, your storefront shows “or from $X/month with PayBright” as an estimate."
          error={errors.financingMonths}
        />
        {STOREFRONT_TEXT_FIELDS.map(({ name, label }) => (
          <TextField
            key={name}
            name={name}
            label={label}
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
            ? `Saved ${dateTime(view.updated_at)}${view.updated_by ? ` by ${view.updated_by}` : ""} (change ${view.version}). Saving tests the API key and token with PayBright first.`
            : "Nothing saved here yet: your store's configuration applies. Saving tests the API key and token with PayBright first."}
        </Text>
        <Button type="submit" size="small" isLoading={save.isPending} id="paybright-settings-save">
          Save
        </Button>
      </div>
    </form>
  )
}

/** The storefront's settings entered as text; blank means none. */
const STOREFRONT_TEXT_FIELDS = [
  { name: "financingApr", label: "APR in the estimate, in percent (e.g. 9.99)" },
  { name: "financingSetupFee", label: "Setup fee financed (blank: none)" },
  { name: "financingMonthlyFee", label: "Monthly fee (blank: none)" },
  { name: "financingMinAmount", label: "Smallest price showing the estimate (blank: the order minimum)" },
  { name: "promotionalWidgetKey", label: "PayBright widget public key (blank: show the estimate)" },
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
          {label.split(" (")[0]} {error}
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
  return (
    <Field name={props.name} label={props.label} error={props.error} hint={props.locked ? PROTECTED_HINT : props.help}>
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
  return (
    <Field name={props.name} label={props.label} error={props.error} hint={props.locked ? PROTECTED_HINT : props.help}>
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
  const masked =
    props.state.source === "admin"
      ? "•••••••• saved here; type to replace"
      : props.state.source === "config"
        ? "•••••••• from your store's configuration; type to replace"
        : "not set"
  return (
    <Field
      name={props.name}
      label={props.label}
      error={props.error}
      hint={
        props.locked
          ? PROTECTED_HINT
          : props.disabled
            ? "Cannot be saved here: see above."
            : "Leave blank to keep the current value."
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
