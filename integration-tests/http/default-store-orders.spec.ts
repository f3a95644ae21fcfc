import { adminSettings } from "./admin-settings.suite"
import { captureAtShipment } from "./capture-at-shipment.suite"
import { captureRace } from "./capture-race.suite"
import { onDefaultStore } from "./default-store"
import { killedMidCapture } from "./killed-mid-capture.suite"
import { orderChanges } from "./order-changes.suite"
import { orderChangeScreens } from "./order-change-screens.suite"
import { paymentChannel } from "./payment-channel.suite"

jest.setTimeout(300_000)

/**
 * The default store (./default-store.ts) after the order is placed: its parcels captured, Medusa's
 * order changes, a capture cut short. The suites that change the settings in the admin run last:
 * what they save stays in the app's memory until its next read of the settings.
 */
onDefaultStore([
  captureAtShipment,
  orderChanges("in_store"),
  orderChangeScreens,
  killedMidCapture,
  captureRace("postgres"),
  paymentChannel,
  adminSettings,
])
