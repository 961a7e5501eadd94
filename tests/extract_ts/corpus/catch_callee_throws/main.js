// `catch (e)`: e is one of the instances the try block throws itself and those the functions it
// calls throw out of their bodies (one call deep, through imports, methods and arrows): e.report()
// reaches each one's `report`. Calls inside a callback written in the try block are not the
// block's own calls, and a try block calling only functions that throw nothing of ours (or
// builtins) leaves e unknown.
import { Denied } from "./errors.js";
import { find, validate, remove, expire, Repo } from "./repo.js";

const guard = (user) => {
  if (!user) throw new Denied("anonymous");
};

function noop() {}

export function load(user, id) {
  try {
    guard(user);
    return find(id);
  } catch (e) {
    e.report();
  }
}

export function store(repo = new Repo(), value) {
  try {
    validate(value);
    repo.save(value);
  } catch (e) {
    e.report();
  }
}

export function later(items) {
  try {
    items.forEach((x) => guard(x));
    noop();
  } catch (e) {
    e.report();
  }
}

export function mixed(user) {
  try {
    if (!user) throw new Error("no user");
    guard(user);
  } catch (e) {
    e.report();
  }
}

export function cleanup(id) {
  try {
    remove(id);
    expire();
  } catch (e) {
    e.report();
  }
}

export function direct(user) {
  const failure = new Denied(user);
  try {
    throw failure;
  } catch (e) {
    e.report();
  }
}
