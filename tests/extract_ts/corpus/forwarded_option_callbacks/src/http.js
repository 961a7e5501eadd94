// Callbacks forwarded inside an options object: the wrapper gets them as parameters and puts
// them in the object it passes on (`send({ url, onSuccess, onError: fail })`), where the callee
// calls them as the object's members.
function send(options) {
  const data = options.url;
  if (data) options.onSuccess(data);
  else options.onError(new Error("no url"));
}

export function get(url, onSuccess, fail) {
  send({ url, onSuccess, onError: fail });
}

export function getJson(url, handlers) {
  send({ url, onSuccess: handlers.done, onError: handlers.failed });
}
