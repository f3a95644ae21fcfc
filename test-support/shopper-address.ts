/** The Toronto shopper the demo and the tests buy as (13 % HST). */
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

/** A Montréal shopper (5 % GST + 9.975 % QST). */
export const QUEBEC_SHOPPER_ADDRESS = {
  first_name: "Élise",
  last_name: "Gagnon",
  address_1: "1000 rue Sherbrooke O",
  city: "Montréal",
  province: "QC",
  postal_code: "H3A 3G4",
  country_code: "ca",
  phone: "5145550123",
}
