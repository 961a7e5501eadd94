// An array indexed by a `const` holding a number is that element (as `steps[1]`); a `let` or a
// loop index may be any element.
function validate() {}

function transform() {}

function save() {}

const steps = [validate, transform, save];
const LAST = 2;

export function finish() {
  steps[LAST]();
}

export function runFirst() {
  const first = 0;
  steps[first]();
}

export function runAll() {
  for (let i = 0; i < steps.length; i++) steps[i]();
}
