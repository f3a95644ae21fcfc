/** The Luhn check digit card numbers end with. */
export function luhnCheckDigit(body: string): string {
  let sum = 0
  for (let index = 0; index < body.length; index++) {
    let digit = Number(body[body.length - 1 - index])
    if (index % 2 === 0) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return String((10 - (sum % 10)) % 10)
}

/** Whether a card number's last digit is its Luhn check digit. */
export function passesLuhn(number: string): boolean {
  return number.length > 1 && luhnCheckDigit(number.slice(0, -1)) === number.slice(-1)
}
