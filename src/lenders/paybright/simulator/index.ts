/** The PayBright lender simulator: the hosted application, the REST API and a test-only control API over real HTTP. */
export { startSimulator, type Simulator, type SimulatorOptions, type CardTransaction } from "./server"
export { SIMULATOR_TEST_ACCOUNT, type Account } from "./accounts"
export type { SimulatorSettings, SimulatorSettingsUpdate, CallbackSettings } from "./settings"
export type { SimulatorLogger } from "./logger"
export type { ContractBooks, ContractView, ContractStatus } from "./ledger"
export type { CallbackAttempt, CallbackKind } from "./callbacks"
export type { InjectedFailure, Operation } from "./rest-api"
export {
  FAULT_KINDS,
  FAULT_ACTS,
  VOID_FAULT_KINDS,
  VOID_FAULT_ACTS,
  type Fault,
  type FaultKind,
  type FaultOperation,
  type FiredFault,
  type VoidFaultKind,
} from "./faults"
export type { FaultRequest } from "./server"
export { passesLuhn } from "./luhn"
