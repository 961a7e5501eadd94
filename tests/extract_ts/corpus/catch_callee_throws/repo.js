import { NotFound, Invalid, Broken, Timeout } from "./errors.js";

// What leaves a function: `throw new E()` in its body, in a catch clause (a rethrow) or in a
// finally block; not one a try statement in it catches, nor one of a function written in it.
export function find(id) {
  if (!id) throw new NotFound(id);
  try {
    JSON.parse(id);
    throw new Timeout();
  } catch (err) {
    throw new Broken(String(err));
  }
}

export function validate(value) {
  const later = () => {
    throw new Timeout();
  };
  if (typeof value !== "string") {
    throw new Invalid(value);
  }
  return later;
}

export class Repo {
  save(record) {
    if (!record) throw new Invalid("empty");
  }
}
