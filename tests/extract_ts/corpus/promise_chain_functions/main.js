// A promise chain whose step returns a function: the next step's parameter is that function
// (a promise resolves to what the callback returns), and calling it reaches it.
function pickParser(format) {
  return format;
}

function parseJson(text) {
  return text;
}

async function loadFormat() {
  return "json";
}

function run(text) {
  return loadFormat()
    .then((format) => {
      pickParser(format);
      return parseJson;
    })
    .then((parse) => parse(text));
}

function delayed(value) {
  return Promise.resolve(value)
    .then(() => parseJson)
    .then((fn) => fn(value));
}

module.exports = { run, delayed };
