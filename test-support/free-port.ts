import net from "node:net"

/**
 * Ports outside Linux's ephemeral range (32768–60999), which the system also hands to outgoing
 * connections as their local ports: a port probed free there can be taken by a connection to the
 * database or the simulator before the app binds it.
 */
const LOW = 20_000
const HIGH = 32_000

/** A port nothing listens on right now (on every interface, as Medusa binds), below the ephemeral range. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW))
    if (await bindable(port)) return port
  }
  return systemPort()
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer()
    probe.unref()
    probe.once("error", () => resolve(false))
    probe.listen(port, () => probe.close(() => resolve(true)))
  })
}

function systemPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.unref()
    probe.once("error", reject)
    probe.listen(0, () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
  })
}
