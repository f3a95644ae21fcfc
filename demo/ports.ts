import net from "node:net"

export class PortInUseError extends Error {}

/**
 * Fails with what to do when `port` is taken. Checked before anything starts, because Medusa
 * reports a busy port only in its log, and a /health answered by whatever holds the port would
 * look like a healthy store.
 */
export async function ensurePortFree(port: number, flag: string) {
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer()
    probe.unref()
    probe.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new PortInUseError(
          error.code === "EADDRINUSE"
            ? `port ${port} is already in use. Stop what listens there (\`ss -ltnp 'sport = :${port}'\` shows it), or choose another port: ${flag}`
            : `port ${port} cannot be used (${error.code ?? error.message}); choose another one: ${flag}`
        )
      )
    )
    probe.listen(port, () => probe.close(() => resolve()))
  })
}
