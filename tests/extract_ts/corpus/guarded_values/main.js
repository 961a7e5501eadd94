import nodeTransport, { fetchTransport } from "./transports.js";

export function send(request, options) {
  const transport = (options && options.preferFetch && fetchTransport) || nodeTransport;
  return transport({ ...request });
}
