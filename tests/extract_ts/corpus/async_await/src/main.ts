import { getRepo } from "./repo";
export async function main() {
  const repo = await getRepo();
  const item = await repo.load("1");
  await item.save();
  setTimeout(() => main(), 10);
}
