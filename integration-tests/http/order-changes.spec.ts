import { orderChangeSuite } from "../helpers/order-change-suite"

jest.setTimeout(300_000)

orderChangeSuite("in_store")
