// Character classes used by the string methods (by code point).

/** Unicode white space as Go's unicode.IsSpace defines it. */
export function isSpaceCode(c: number): boolean {
  if (c <= 0xff) return c === 32 || (c >= 9 && c <= 13) || c === 0x85 || c === 0xa0;
  return (
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

const letter = /^\p{L}$/u;
const number = /^\p{N}$/u;
const decimal = /^\p{Nd}$/u;

export function isLetter(ch: string): boolean {
  const c = ch.charCodeAt(0);
  if (c < 128) return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  return letter.test(ch);
}

export function isDigit(ch: string): boolean {
  const c = ch.charCodeAt(0);
  if (c < 128) return c >= 48 && c <= 57;
  return decimal.test(ch);
}

export function isNumber(ch: string): boolean {
  const c = ch.charCodeAt(0);
  if (c < 128) return c >= 48 && c <= 57;
  return number.test(ch);
}

/** A character with distinct upper and lower case forms. */
export function isCased(ch: string): boolean {
  return ch.toLowerCase() !== ch.toUpperCase() || /^\p{Lt}$/u.test(ch);
}

export function isUpperChar(ch: string): boolean {
  return isCased(ch) && ch === ch.toUpperCase() && ch !== ch.toLowerCase();
}

export function isLowerChar(ch: string): boolean {
  return isCased(ch) && ch === ch.toLowerCase() && ch !== ch.toUpperCase();
}
