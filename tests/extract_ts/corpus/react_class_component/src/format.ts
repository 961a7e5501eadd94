export const format = (s: string) => s.trim();
