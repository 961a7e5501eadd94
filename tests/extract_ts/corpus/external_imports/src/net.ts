import axios from "axios";
import { readFile } from "fs/promises";
import * as path from "node:path";
import { z } from "zod";
import type { AxiosInstance } from "axios";
export async function load(client: AxiosInstance) {
  const cfg = await readFile(path.join("a", "b"));
  await axios.get("/x");
  await client.post("/y");
  return z.object({}).parse(cfg);
}
