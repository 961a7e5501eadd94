// A catch clause that logs and rethrows passes on what its try block throws: the caller's
// catch parameter holds it. Also a rethrow inside the try block of an outer try statement.
class TimeoutError {
  describe() {
    return "timed out";
  }
}

class ParseError {
  describe() {
    return "bad input";
  }
}

function fetchPage(url) {
  if (!url) throw new TimeoutError();
  return url;
}

function loadPage(url) {
  try {
    return fetchPage(url);
  } catch (err) {
    console.error("load failed");
    throw err;
  }
}

function render(url) {
  try {
    loadPage(url);
  } catch (failure) {
    return failure.describe();
  }
  return "ok";
}

function parseAll(items) {
  try {
    try {
      if (!items.length) throw new ParseError();
    } catch (inner) {
      throw inner;
    }
  } catch (outer) {
    return outer.describe();
  }
  return "parsed";
}

function retryForever(n) {
  try {
    return retryForever(n + 1);
  } catch (e) {
    throw e;
  }
}

module.exports = { render, parseAll, retryForever };
