export * from "../../demo/seed-store"
