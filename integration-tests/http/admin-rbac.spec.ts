import jwt from "jsonwebtoken"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { ConfigModule, MedusaContainer } from "@medusajs/framework/types"
import { useAppPort } from "../helpers/app-port"
import { useSimulator } from "../helpers/simulator"

jest.setTimeout(120_000)

useAppPort()
useSimulator({ decision: "approve", callback: { enabled: false } })
// Before the app boots (its configuration is read before the runner's `env` applies), and only for this file.
beforeAll(() => {
  process.env.MEDUSA_FF_RBAC = "true"
})
afterAll(() => {
  delete process.env.MEDUSA_FF_RBAC
})

/** An admin session whose roles grant exactly `policies` (resource:operation). */
async function sessionWith(container: MedusaContainer, email: string, policies: string[]) {
  const rbac = container.resolve(Modules.RBAC) as any
  const role = (await rbac.createRbacRoles([{ name: `role of ${email}` }]))[0]
  for (const policy of policies) {
    const [resource, operation] = policy.split(":")
    const [existing] = await rbac.listRbacPolicies({ resource, operation })
    const found = existing ?? (await rbac.createRbacPolicies([{ key: policy, resource, operation, name: policy }]))[0]
    await rbac.createRbacRolePolicies([{ role_id: role.id, policy_id: found.id }])
  }
  const user = await container.resolve(Modules.USER).createUsers({ email })
  const config = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE) as ConfigModule
  const token = jwt.sign(
    {
      actor_id: user.id,
      actor_type: "user",
      auth_identity_id: "",
      app_metadata: { user_id: user.id, roles: [role.id] },
    },
    config.projectConfig.http.jwtSecret as string,
    { expiresIn: "1h" }
  )
  return { headers: { authorization: `Bearer ${token}` }, validateStatus: () => true }
}

medusaIntegrationTestRunner({
  env: { MEDUSA_DISABLE_TELEMETRY: "true" },
  testSuite: ({ api, getContainer }) => {
    it("lets a reader read the plugin's admin routes and refuses every write without payment:update", async () => {
      const reader = await sessionWith(getContainer(), "reader@paybright.test", ["order:read", "payment:read"])
      const writer = await sessionWith(getContainer(), "writer@paybright.test", [
        "order:read",
        "payment:read",
        "payment:update",
      ])
      const stranger = await sessionWith(getContainer(), "stranger@paybright.test", ["product:read"])

      for (const path of [
        "/admin/paybright/settings",
        "/admin/paybright/attention",
        "/admin/paybright/authorizations",
      ]) {
        expect([path, (await api.get(path, reader)).status]).toEqual([path, 200])
        expect([path, (await api.get(path, stranger)).status]).toEqual([path, 403])
      }
      const writes = [
        "/admin/paybright/settings/pp_paybright_paybright/check",
        "/admin/paybright/settings/pp_paybright_paybright",
        "/admin/paybright/captures/pbcap_unknown/retry",
        "/admin/paybright/payments/pay_unknown/card/reveal",
        "/admin/paybright/records/rec_unknown/resolve",
      ]
      for (const path of writes) {
        const refused = await api.post(path, { shopName: "Not allowed" }, reader)
        expect([path, refused.status]).toEqual([path, 403])
        expect(refused.data.message).toContain("payment:update")
      }
      // With write access the same save goes through (the lender simulator accepts the credentials).
      const saved = await api.post("/admin/paybright/settings/pp_paybright_paybright", { shopName: "Allowed" }, writer)
      expect(saved.status).toBe(200)
      expect(saved.data.settings.values.shopName).toBe("Allowed")
    })
  },
})
