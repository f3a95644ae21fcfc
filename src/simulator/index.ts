export { startSimulator, SIMULATOR_TEST_ACCOUNT, type Simulator, type SimulatorOptions, type SimulatorSettings } from "./server"
export type { ContractView } from "./ledger"
export type { CallbackAttempt } from "./callbacks"
