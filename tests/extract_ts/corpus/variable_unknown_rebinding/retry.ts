// A typed variable assigned in the function that calls it (`let sub: Subscription | null`, then
// `sub = source.subscribe(...)` and `sub.unsubscribe()` in a retry closure): its type says what
// the call reaches, whatever the assignment's value.
export class Subscription {
  unsubscribe(): void {}
}

declare function subscribeSource(): any;

export function retrying(times: number): () => void {
  let innerSub: Subscription | null = null;
  const subscribeForRetry = () => {
    innerSub = subscribeSource();
    if (times > 0) {
      innerSub.unsubscribe();
      innerSub = null;
      subscribeForRetry();
    }
  };
  return subscribeForRetry;
}
