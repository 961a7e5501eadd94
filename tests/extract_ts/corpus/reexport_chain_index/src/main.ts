import { add, fmt, times } from ".";
console.log(fmt(add(1, 2)), times(2, 3));
