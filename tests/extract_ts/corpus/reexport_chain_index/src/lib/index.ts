export { add } from "./math";
export * from "./format";
export { mul as times } from "./math";
