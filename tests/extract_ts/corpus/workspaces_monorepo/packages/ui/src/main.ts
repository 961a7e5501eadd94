import { slug, capitalize } from "@org/utils";
export function title(s: string) {
  return capitalize(slug(s));
}
