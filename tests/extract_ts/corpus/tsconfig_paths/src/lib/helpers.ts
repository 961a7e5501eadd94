export const double = (n: number) => n * 2;
