/** Where the simulator reports what it does; silent unless one is given. No card data is ever passed to it. */
export type SimulatorLogger = {
  info(message: string): void
  warn(message: string): void
}

export const silentLogger: SimulatorLogger = { info: () => undefined, warn: () => undefined }
