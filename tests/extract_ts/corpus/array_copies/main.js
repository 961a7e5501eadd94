// Arrays made from other arrays keep their elements: concat (with what it is given), reverse,
// filter and sort copies, and Array.of; iterating such a copy calls them. An element asked for
// by position in a reordered copy is not known.
function validateName(user) {
  return user;
}

function validateEmail(user) {
  return user;
}

function validateAge(user) {
  return user;
}

function audit(user) {
  return user;
}

const base = [validateName, validateEmail];
const all = base.concat([validateAge], audit);

function validate(user) {
  all.forEach((check) => check(user));
}

function validateBackwards(user) {
  const reversed = [...base].reverse();
  for (const check of reversed) {
    check(user);
  }
  const [last] = base.slice().reverse();
  return last;
}

function validateSome(user, skip) {
  const chosen = base.filter((check) => check !== skip);
  chosen.forEach((check) => check(user));
}

const hooks = Array.of(audit);

function runHooks(user) {
  hooks[0](user);
}

module.exports = { validate, validateBackwards, validateSome, runHooks };
