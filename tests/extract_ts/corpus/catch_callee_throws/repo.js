import { NotFound, Invalid, Broken, Timeout } from "./errors.js";

// What leaves a function: `throw new E()` (or a call's result, or a name declared in its body)
// in its body, in a catch clause or in a finally block; not one a try statement in it catches,
// nor one of a function written in it.
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

// `throw makeError(id)` throws what the call returns; `throw err` a name declared in the body
function makeError(id) {
  return new Invalid(id);
}

export function remove(id) {
  throw makeError(id);
}

export function expire() {
  const err = new Timeout("late");
  throw err;
}

export class Repo {
  save(record) {
    if (!record) throw new Invalid("empty");
  }
}
