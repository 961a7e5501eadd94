import { onSave } from "./handlers";
export const start = () => onSave("x");
