import os from "node:os"
import { configManager } from "@medusajs/framework/config"
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import {
  processSaid,
  settingsUnreadableAttention,
  settingsUnreadableMessage,
  type UnreadableSettingsFacts,
} from "./settings-messages"
import { english, isSaid, type Said } from "./texts/said"
import { applicationContainer } from "./medusa-internals"
import { PAYBRIGHT_MODULE } from "../modules/paybright"
import { pluginRecords, recordsWriter } from "./plugin-records"
import { readSettingsVersion } from "./stored-settings"

/** The event-log row a process writes when it cannot use the saved settings. */
export const UNREADABLE_EVENT = "settings.unreadable"
/** A process that keeps refusing says so again this often, so the admin keeps listing it. */
export const REPORT_EVERY_MS = 5 * 60_000
/** A report stands this long: a process that stopped refusing (restarted with the right key) drops off. */
export const REPORT_STANDS_MS = 15 * 60_000

/**
 * What every PayBright session, capture, refund and job throws in a process that cannot use the
 * saved settings. A 500: the store is misconfigured, not the request.
 */
export class SettingsUnreadableError extends MedusaError {
  constructor(readonly facts: UnreadableSettingsFacts) {
    super(MedusaError.Types.UNEXPECTED_STATE, settingsUnreadableMessage(facts))
  }
}

type Logger = { error(message: string): void }

/** When this process last reported each problem. */
const reported = new Map<string, number>()

/**
 * Says loudly that this process cannot use the saved settings: in its log, and in the event log,
 * where the admin's "needs attention" list of any process reads it. Once per problem, then again
 * every REPORT_EVERY_MS while the process keeps refusing work.
 *
 * The row is appended through the module service rather than a workflow: it is written from deep
 * inside whatever work was refused (a session, a capture, a job, a script), by a process that may
 * run nothing else of the plugin, and it is a log line that nothing undoes.
 */
export async function reportUnreadableSettings(facts: UnreadableSettingsFacts, logger: Logger, now = Date.now()) {
  const key = JSON.stringify([facts.providerId, facts.version, facts.fact])
  const last = reported.get(key)
  if (last !== undefined && now - last < REPORT_EVERY_MS) return
  reported.set(key, now)
  logger.error(settingsUnreadableMessage(facts))
  const appContainer = applicationContainer()
  if (!appContainer.hasRegistration(PAYBRIGHT_MODULE)) return
  const who = processName()
  const process = english(who)
  await recordsWriter(appContainer)
    .recordEvents([
      {
        kind: UNREADABLE_EVENT,
        actor: "system",
        message: settingsUnreadableAttention(facts, who),
        details: { ...facts, process },
      },
    ])
    .catch((error: Error) => logger.error(`PayBright: could not record that ${process} is stopped: ${error.message}`))
}

export type UnreadableReport = UnreadableSettingsFacts & {
  process: string
  message: string
  said: Said | null
  at: string
}

/**
 * The processes that reported, within REPORT_STANDS_MS, that they cannot use the settings saved
 * now (a newer save supersedes a report): the newest report of each process and provider.
 */
export async function standingUnreadableReports(container: MedusaContainer, now = Date.now()) {
  const module = pluginRecords(container)
  const rows = (await module.listPayBrightEvents(
    { kind: UNREADABLE_EVENT, created_at: { $gte: new Date(now - REPORT_STANDS_MS) } },
    { order: { created_at: "DESC" } }
  )) as unknown as {
    message: string
    created_at: Date | string
    details: UnreadableSettingsFacts & { process: string; said?: unknown }
  }[]
  const versions = new Map<string, number>()
  const standing = new Map<string, UnreadableReport>()
  for (const row of rows) {
    const { providerId, process } = row.details
    if (!versions.has(providerId)) versions.set(providerId, await readSettingsVersion(module, providerId))
    const key = JSON.stringify([providerId, process])
    if (versions.get(providerId) !== row.details.version || standing.has(key)) continue
    standing.set(key, {
      ...row.details,
      message: row.message,
      said: isSaid(row.details.said) ? row.details.said : null,
      at: new Date(row.created_at).toISOString(),
    })
  }
  return [...standing.values()]
}

/** Which process this is, as the merchant reads it: "The worker process 4242 on app-2". */
function processName(): Said {
  let mode: string | undefined
  try {
    mode = configManager.config.projectConfig.workerMode
  } catch {
    // No configuration loaded (a script): a plain process.
  }
  return processSaid(mode === "worker" ? "worker" : mode === "server" ? "server" : "plain", process.pid, os.hostname())
}
