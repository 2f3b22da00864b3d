// The page's words: all of them come from the server's catalogues in the table's language
// (the welcome message); the page has none of its own beyond the loading fallback.

let words: Record<string, string> = {};
let numbers = new Intl.NumberFormat("en");

export function setWords(given: Record<string, string>, lang: string): void {
  words = given;
  numbers = new Intl.NumberFormat(lang);
}

export function chips(amount: number): string {
  return numbers.format(amount);
}

/** The catalogue's text for `key` with its `{name}` placeholders filled; numbers are grouped
 * as the language writes them. A key the server did not send shows as itself, which a test
 * catches, rather than as an English string the catalogue never had. */
export function t(key: string, params: Record<string, string | number> = {}): string {
  const template = words[key] ?? key;
  // Python's brace format as the catalogues use it: {name}, {name:d}, {name:+}.
  return template.replace(/\{(\w+)(?::([^}]*))?\}/g, (whole, name: string, spec?: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    if (typeof value !== "number") return value;
    if (spec === "d") return String(value); // a hand's number, not an amount
    return (spec === "+" && value >= 0 ? "+" : "") + chips(value);
  });
}

export function has(key: string): boolean {
  return key in words;
}
