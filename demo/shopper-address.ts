/** The Toronto shopper the demo and the tests buy as. */
export const SHOPPER_ADDRESS = {
  first_name: "Jeanne",
  last_name: "Tremblay",
  address_1: "100 King St W",
  city: "Toronto",
  province: "ON",
  postal_code: "M5X 1A9",
  country_code: "ca",
  phone: "4165550199",
}
