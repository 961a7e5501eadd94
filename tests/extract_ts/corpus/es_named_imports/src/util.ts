export function slugify(s: string): string {
  return s.trim().toLowerCase();
}
export const upper = (s: string) => s.toUpperCase();
