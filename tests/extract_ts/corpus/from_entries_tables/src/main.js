import { commands, run } from "./commands";

commands.start();
commands["stop"]();
run("status");
