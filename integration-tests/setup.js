const { MetadataStorage } = require("@medusajs/framework/mikro-orm/core")

// Each test file boots its own app: entity metadata from the previous file must not leak in.
MetadataStorage.clear()
