export function log(message: string): void {}

export function format(value: number): string {
  return String(value);
}
