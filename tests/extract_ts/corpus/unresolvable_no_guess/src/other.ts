export function fn() {}
export function local() {}
