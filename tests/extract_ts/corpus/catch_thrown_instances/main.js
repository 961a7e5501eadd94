// `catch (e)` holds one of the instances its try block throws itself (`throw new E(...)`): the
// methods called on `e` are theirs. A throw inside a function written in the block, or inside a
// nested try statement that catches it, is not this clause's; a rethrow from the nested catch is.
// A try block that throws nothing of ours leaves `e` unknown (`e.report()` in `parse` is no edge).
class HttpError extends Error {
  report() {}
}
class TimeoutError extends Error {
  report() {}
  retry() {}
}
class ParseError extends Error {
  report() {}
}

export function fetchData(res, slow) {
  try {
    if (slow) throw new TimeoutError("slow");
    if (!res.ok) {
      throw new HttpError(res.status);
    }
    const later = () => {
      throw new ParseError("later");
    };
    try {
      throw new ParseError("inner");
    } catch (inner) {
      throw new HttpError(500);
    }
  } catch (e) {
    e.report();
  }
}

export function parse(text) {
  try {
    return JSON.parse(text);
  } catch (e) {
    e.report();
  }
}

export function withRetry() {
  try {
    throw new TimeoutError("again");
  } catch ({ retry }) {
    retry();
  }
}
