export * from "./lib";
