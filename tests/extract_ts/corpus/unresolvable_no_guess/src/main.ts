import { gone } from "./missing";
import * as ghost from "./ghost";
declare const unknownThing: any;
function local() {}
gone();
ghost.fn();
unknownThing.local();
local();
someGlobalFn();
const arr = [1, 2];
arr.fn();
