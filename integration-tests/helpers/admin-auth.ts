import jwt from "jsonwebtoken"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { ConfigModule, MedusaContainer } from "@medusajs/framework/types"

/** Creates an admin user and answers the headers of a logged-in admin session for it. */
export async function adminHeaders(container: MedusaContainer, email = "admin@paybright.test") {
  const users = container.resolve(Modules.USER)
  const auth = container.resolve(Modules.AUTH)
  const user = await users.createUsers({ email, first_name: "Ada", last_name: "Admin" })
  const identity = await auth.createAuthIdentities({
    provider_identities: [{ provider: "emailpass", entity_id: email }],
    app_metadata: { user_id: user.id },
  })
  const config = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE) as ConfigModule
  const token = jwt.sign(
    { actor_id: user.id, actor_type: "user", auth_identity_id: identity.id, app_metadata: { user_id: user.id } },
    config.projectConfig.http.jwtSecret as string,
    { expiresIn: "1d" }
  )
  return { headers: { authorization: `Bearer ${token}` }, userId: user.id }
}
