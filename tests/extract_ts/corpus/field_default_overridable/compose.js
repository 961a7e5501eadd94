export const compose = (middleware, onError, onNotFound) => {
  return (context) => {
    return dispatch(0);
    function dispatch(i) {
      const handler = middleware[i];
      if (!handler) {
        return onNotFound(context);
      }
      try {
        return handler(context, () => dispatch(i + 1));
      } catch (err) {
        return onError(err, context);
      }
    }
  };
};
